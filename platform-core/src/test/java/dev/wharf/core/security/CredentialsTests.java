package dev.wharf.core.security;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Credentials}.
 */
class CredentialsTests {

	@Test
	void travelInTheReactorContextAndNeverPrintThePassword() {
		Credentials alice = new Credentials("alice", "s3cret");
		assertThat(Credentials.current().contextWrite(alice.context()).block()).isEqualTo(alice);
		assertThat(Credentials.current().block()).isNull();
		assertThat(Mono.just(1).flatMap(i -> Credentials.current()).contextWrite(alice.context()).block())
			.isEqualTo(alice);
		assertThat(alice.toString()).contains("alice").doesNotContain("s3cret");
	}

}
