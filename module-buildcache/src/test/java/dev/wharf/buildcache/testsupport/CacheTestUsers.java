package dev.wharf.buildcache.testsupport;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.testsupport.RawHttp;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The users every build cache test configures: a {@code cache-writer}, a
 * {@code cache-reader}, a {@code user} without cache roles and an admin. Passwords are
 * hashed once per JVM (bcrypt is slow).
 */
public final class CacheTestUsers {

	public static final String WRITER = "writer";

	public static final String WRITER_PASSWORD = "writer-secret";

	public static final String READER = "reader";

	public static final String READER_PASSWORD = "reader-secret";

	public static final String PLAIN = "plain";

	public static final String PLAIN_PASSWORD = "plain-secret";

	public static final String ADMIN = "root";

	public static final String ADMIN_PASSWORD = "root-secret";

	private static final String WRITER_HASH = PasswordHashing.hash(WRITER_PASSWORD);

	private static final String READER_HASH = PasswordHashing.hash(READER_PASSWORD);

	private static final String PLAIN_HASH = PasswordHashing.hash(PLAIN_PASSWORD);

	private static final String ADMIN_HASH = PasswordHashing.hash(ADMIN_PASSWORD);

	private CacheTestUsers() {
	}

	/**
	 * Registers the users.
	 * @param registry from a {@code @DynamicPropertySource} method
	 */
	public static void register(DynamicPropertyRegistry registry) {
		user(registry, 0, WRITER, WRITER_HASH, "cache-writer");
		user(registry, 1, READER, READER_HASH, "cache-reader");
		user(registry, 2, PLAIN, PLAIN_HASH, "user");
		user(registry, 3, ADMIN, ADMIN_HASH, "admin");
	}

	private static void user(DynamicPropertyRegistry registry, int index, String name, String hash, String role) {
		String prefix = "wharf.security.users[" + index + "].";
		registry.add(prefix + "name", () -> name);
		registry.add(prefix + "password", () -> hash);
		registry.add(prefix + "roles[0]", () -> role);
	}

	/** {@code Authorization} header line of the writer. */
	public static String writer() {
		return "Authorization: " + RawHttp.basic(WRITER, WRITER_PASSWORD);
	}

	/** {@code Authorization} header line of the reader. */
	public static String reader() {
		return "Authorization: " + RawHttp.basic(READER, READER_PASSWORD);
	}

	/** {@code Authorization} header line of the admin. */
	public static String admin() {
		return "Authorization: " + RawHttp.basic(ADMIN, ADMIN_PASSWORD);
	}

	/** {@code Authorization} header line of the user without cache roles. */
	public static String plain() {
		return "Authorization: " + RawHttp.basic(PLAIN, PLAIN_PASSWORD);
	}

}
