package dev.wharf.filemanager.testsupport;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.testsupport.MutableClock;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Mono;

/**
 * The file manager for share link tests: {@link FileManagerTestApplication} with a clock
 * tests move (for expiry) and a user directory tests change (to remove a link's creator
 * or lower their rights). Users as in {@link FileManagerTestBase}, plus dora
 * ({@code data} and {@code scratch} read-write), whose rights tests change.
 */
@SpringBootConfiguration
@Import(FileManagerTestApplication.class)
public class ShareTestApplication {

	/** dora's password. */
	public static final String DORA_PASSWORD = "dora-password";

	@Bean
	MutableClock shareTestClock() {
		return new MutableClock();
	}

	@Bean
	TestUsers testUsers() {
		TestUsers users = new TestUsers();
		users.put(new User("alice", Set.of(Role.USER),
				Map.of("data", MountAccess.READ_WRITE, "scratch", MountAccess.READ_WRITE, "ro", MountAccess.READ_ONLY,
						"faulty", MountAccess.READ_WRITE, "pass", MountAccess.READ_WRITE)),
				FileManagerTestBase.ALICE_PASSWORD);
		users.put(new User("bob", Set.of(Role.USER), Map.of("data", MountAccess.READ_ONLY)),
				FileManagerTestBase.BOB_PASSWORD);
		users.put(dora(MountAccess.READ_WRITE), DORA_PASSWORD);
		return users;
	}

	/**
	 * dora with a right on {@code data}.
	 * @param data the right
	 * @return the user
	 */
	public static User dora(MountAccess data) {
		return new User("dora", Set.of(Role.USER), Map.of("data", data, "scratch", MountAccess.READ_WRITE));
	}

	/** Users that tests add, change and remove while the server runs. Thread-safe. */
	public static final class TestUsers implements UserDirectory {

		private final Map<String, User> users = new ConcurrentHashMap<>();

		private final Map<String, String> hashes = new ConcurrentHashMap<>();

		/**
		 * Adds or changes a user.
		 * @param user the user
		 * @param password their password
		 */
		public void put(User user, String password) {
			this.hashes.put(user.name(), PasswordHashing.hash(password));
			this.users.put(user.name(), user);
		}

		/**
		 * Removes a user.
		 * @param name the user's name
		 */
		public void remove(String name) {
			this.users.remove(name);
		}

		@Override
		public Mono<User> verify(String name, String password) {
			return Mono.fromCallable(() -> {
				User user = this.users.get(name);
				String hash = this.hashes.get(name);
				return (user != null && hash != null && PasswordHashing.matches(password, hash)) ? user : null;
			});
		}

		@Override
		public Optional<User> find(String name) {
			return Optional.ofNullable(this.users.get(name));
		}

	}

}
