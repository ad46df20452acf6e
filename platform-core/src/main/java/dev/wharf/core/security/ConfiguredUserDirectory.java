package dev.wharf.core.security;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.SecurityProperties.UserProperties;
import reactor.core.publisher.Mono;

/**
 * Users from {@code wharf.security.users}, each checked at start-up: a malformed entry
 * stops Wharf with a message naming the property (never showing a password or hash).
 */
public final class ConfiguredUserDirectory implements UserDirectory {

	private final Map<String, Account> accounts;

	/**
	 * Checks and loads the configured users.
	 * @param users the configured users
	 * @param mountExists tells whether a mount name is configured
	 * @throws InvalidConfigurationException naming the first bad property
	 */
	public ConfiguredUserDirectory(List<UserProperties> users, Predicate<String> mountExists) {
		Map<String, Account> accounts = new LinkedHashMap<>();
		for (int i = 0; i < users.size(); i++) {
			Account account = account("wharf.security.users[" + i + "]", users.get(i), mountExists);
			if (accounts.putIfAbsent(account.user().name(), account) != null) {
				throw new InvalidConfigurationException("wharf.security.users[" + i + "].name", account.user().name(),
						"two users have this name");
			}
		}
		this.accounts = Map.copyOf(accounts);
	}

	/**
	 * A directory of already built accounts, such as the generated admin.
	 * @param user the user
	 * @param passwordHash the user's {@code {bcrypt}} hash
	 * @return the directory
	 */
	static ConfiguredUserDirectory single(User user, String passwordHash) {
		return new ConfiguredUserDirectory(Map.of(user.name(), new Account(user, passwordHash)));
	}

	private ConfiguredUserDirectory(Map<String, Account> accounts) {
		this.accounts = accounts;
	}

	private static Account account(String prefix, UserProperties properties, Predicate<String> mountExists) {
		String name = properties.name();
		if (name == null || !User.isValidName(name)) {
			throw new InvalidConfigurationException(prefix + ".name", name,
					"a user name is 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit");
		}
		String password = properties.password();
		if (password == null || password.isBlank()) {
			throw new InvalidConfigurationException(prefix + ".password", null,
					"every user needs a password hash; make one with: java -jar wharf.jar hash-password");
		}
		if (!PasswordHashing.isHash(password)) {
			throw new InvalidConfigurationException(prefix + ".password", null,
					"must be a {bcrypt} hash, not a password; make one with: java -jar wharf.jar hash-password");
		}
		Rights rights = Rights.parse(prefix, properties.roles(), properties.mounts(), mountExists);
		return new Account(rights.user(name), password);
	}

	/** Whether no user is configured. */
	public boolean isEmpty() {
		return this.accounts.isEmpty();
	}

	/** Every configured user, in no particular order. */
	public List<User> users() {
		return this.accounts.values().stream().map(Account::user).toList();
	}

	@Override
	public Mono<User> verify(String name, String password) {
		return Mono.fromCallable(() -> {
			Account account = this.accounts.get(name);
			if (account == null) {
				PasswordHashing.matchNothing(password);
				return null;
			}
			return PasswordHashing.matches(password, account.passwordHash()) ? account.user() : null;
		});
	}

	@Override
	public Optional<User> find(String name) {
		return Optional.ofNullable(this.accounts.get(name)).map(Account::user);
	}

	private record Account(User user, String passwordHash) {
	}

}
