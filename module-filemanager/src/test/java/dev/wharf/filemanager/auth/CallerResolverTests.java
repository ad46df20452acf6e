package dev.wharf.filemanager.auth;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the header parsing of {@link CallerResolver}.
 */
class CallerResolverTests {

	@Test
	void findsTheSessionCookieAmongOthers() {
		assertThat(CallerResolver
			.sessionCookie(MockServerHttpRequest.get("/").header("Cookie", "a=1; auth=secret; b=2").build()))
			.isEqualTo("secret");
		assertThat(CallerResolver.sessionCookie(MockServerHttpRequest.get("/").header("Cookie", "auth=first").build()))
			.isEqualTo("first");
		assertThat(CallerResolver
			.sessionCookie(MockServerHttpRequest.get("/").header("Cookie", "xauth=1; authx=2").build())).isNull();
		assertThat(CallerResolver.sessionCookie(MockServerHttpRequest.get("/").header("Cookie", "auth=").build()))
			.isNull();
		assertThat(CallerResolver.sessionCookie(MockServerHttpRequest.get("/").build())).isNull();
		assertThat(CallerResolver
			.sessionCookie(MockServerHttpRequest.get("/").header("Cookie", "a=1").header("Cookie", "auth=two").build()))
			.isEqualTo("two");
	}

	@Test
	void acceptsXRequestedWithInAnyCaseOnly() {
		HttpHeaders headers = new HttpHeaders();
		assertThat(CallerResolver.hasRequestedWith(headers)).isFalse();
		headers.set("X-Requested-With", "XMLHttpRequest");
		assertThat(CallerResolver.hasRequestedWith(headers)).isTrue();
		headers.set("X-Requested-With", "XmlHttpRequest");
		assertThat(CallerResolver.hasRequestedWith(headers)).isTrue();
		headers.set("X-Requested-With", "com.example.app");
		assertThat(CallerResolver.hasRequestedWith(headers)).isFalse();
	}

}
