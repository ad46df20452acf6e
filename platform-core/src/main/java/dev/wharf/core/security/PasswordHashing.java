package dev.wharf.core.security;

import java.security.SecureRandom;
import java.util.regex.Pattern;

import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * Password hashes as Wharf stores them: {@code {bcrypt}$2a$10$…}. Hashing and checking
 * are deliberately slow (tens of milliseconds); never call them on an event loop.
 */
public final class PasswordHashing {

	/** The prefix that marks the algorithm. */
	public static final String BCRYPT_PREFIX = "{bcrypt}";

	private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]?\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");

	private static final int STRENGTH = 10;

	private static final BCryptPasswordEncoder ENCODER = new BCryptPasswordEncoder(STRENGTH, new SecureRandom());

	/**
	 * A hash of a random password: checking against it costs the same as against a real
	 * one.
	 */
	private static final String DUMMY = ENCODER.encode(Long.toHexString(new SecureRandom().nextLong()));

	private PasswordHashing() {
	}

	/**
	 * Hashes a password.
	 * @param password the password
	 * @return {@code {bcrypt}} followed by the hash
	 */
	public static String hash(CharSequence password) {
		return BCRYPT_PREFIX + ENCODER.encode(password);
	}

	/**
	 * Whether a stored value is a hash this class can check.
	 * @param stored the configured value
	 * @return whether it is {@code {bcrypt}} plus a well-formed bcrypt hash
	 */
	public static boolean isHash(String stored) {
		return stored.startsWith(BCRYPT_PREFIX) && BCRYPT.matcher(stored.substring(BCRYPT_PREFIX.length())).matches();
	}

	/**
	 * Checks a password against a stored hash, in constant time for a given hash.
	 * @param password the password given
	 * @param stored the stored hash, as accepted by {@link #isHash}
	 * @return whether they match
	 */
	public static boolean matches(CharSequence password, String stored) {
		if (!isHash(stored)) {
			return false;
		}
		return ENCODER.matches(password, stored.substring(BCRYPT_PREFIX.length()));
	}

	/**
	 * Spends the time of one check, so that an unknown user name costs as much as a wrong
	 * password.
	 * @param password the password given
	 */
	public static void matchNothing(CharSequence password) {
		ENCODER.matches(password, DUMMY);
	}

}
