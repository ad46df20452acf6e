package dev.wharf.buildcache.access;

import java.util.Locale;

import javax.security.auth.x500.X500Principal;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes how a user name is read from a TLS client certificate's subject: whatever
 * distinguished name a certificate carries (the JDK accepted it), looking up an attribute
 * answers a value or {@code null} and never throws; and a value found is one the subject
 * really holds.
 */
class CacheAuthenticatorFuzzTests {

	@FuzzTest(maxDuration = "5m")
	void subjectAttribute(FuzzedDataProvider data) {
		String attribute = data.pickValue(new String[] { "CN", "cn", "UID", "OU", "E", "EMAILADDRESS" });
		X500Principal subject;
		try {
			subject = new X500Principal(data.consumeRemainingAsString());
		}
		catch (IllegalArgumentException ex) {
			return;
		}
		String value = CacheAuthenticator.subjectAttribute(subject, attribute);
		if (value != null) {
			assertThat(subject.getName(X500Principal.RFC2253).toUpperCase(Locale.ROOT))
				.contains(attribute.toUpperCase(Locale.ROOT) + "=");
		}
	}

}
