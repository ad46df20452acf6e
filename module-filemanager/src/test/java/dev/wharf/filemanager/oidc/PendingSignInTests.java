package dev.wharf.filemanager.oidc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PendingSignIn}.
 */
class PendingSignInTests {

	@Test
	void theCookieCarriesStateNonceAndVerifierAndNothingElseIsTakenBack() {
		PendingSignIn pending = PendingSignIn.create();
		assertThat(PendingSignIn.parse(pending.cookieValue())).isEqualTo(pending);
		assertThat(pending.matches(pending.state())).isTrue();
		assertThat(pending.matches(pending.nonce())).isFalse();
		assertThat(pending.matches(null)).isFalse();
		for (String malformed : new String[] { "", "a.b.c", pending.cookieValue() + ".x", pending.state(),
				pending.cookieValue().replace('.', ',') }) {
			assertThat(PendingSignIn.parse(malformed)).as(malformed).isNull();
		}
		assertThat(PendingSignIn.parse(null)).isNull();
		assertThat(pending.toString()).doesNotContain(pending.state()).doesNotContain(pending.verifier());
		assertThat(PendingSignIn.create().state()).isNotEqualTo(pending.state());
	}

}
