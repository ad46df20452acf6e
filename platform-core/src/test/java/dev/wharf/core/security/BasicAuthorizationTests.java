package dev.wharf.core.security;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BasicAuthorization}.
 */
class BasicAuthorizationTests {

	@Test
	void readsTheNameAndThePasswordAfterTheFirstColon() {
		assertThat(BasicAuthorization.parse(basic("alice:pa:ss".getBytes(StandardCharsets.UTF_8))))
			.contains(new Credentials("alice", "pa:ss"));
		assertThat(BasicAuthorization
			.parse("bAsIc  " + Base64.getEncoder().encodeToString("Zoë:".getBytes(StandardCharsets.UTF_8))))
			.contains(new Credentials("Zoë", ""));
	}

	@Test
	void refusesWhatIsMalformedInsteadOfRepairingIt() {
		assertThat(BasicAuthorization.parse("Basic !!!")).isEmpty();
		assertThat(BasicAuthorization.parse(basic(":password".getBytes(StandardCharsets.UTF_8)))).isEmpty();
		assertThat(BasicAuthorization.parse(basic("no colon".getBytes(StandardCharsets.UTF_8)))).isEmpty();
		// Latin-1 "é", not UTF-8: replacing it would let "Zo\uFFFD" log in as whoever has
		// that name.
		assertThat(BasicAuthorization.parse(basic(new byte[] { 'Z', 'o', (byte) 0xE9, ':', 'p' }))).isEmpty();
		assertThat(BasicAuthorization
			.parse("Bearer " + Base64.getEncoder().encodeToString("a:b".getBytes(StandardCharsets.UTF_8)))).isEmpty();
	}

	@Test
	void tellsTheSchemeApartFromTheContent() {
		assertThat(BasicAuthorization.isBasic("basic !!!")).isTrue();
		assertThat(BasicAuthorization.isBasic("Bearer x")).isFalse();
		assertThat(BasicAuthorization.isBasic("Basi")).isFalse();
	}

	private static String basic(byte[] credentials) {
		return "Basic " + Base64.getEncoder().encodeToString(credentials);
	}

}
