package dev.wharf.core.security;

import java.util.List;
import java.util.Optional;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The configured users first, then the users of directories and identity providers: a
 * name configured in {@code wharf.security.users} is always checked against its
 * configured password and never sent to a directory, so a directory cannot take over a
 * configured account (an admin who must log in while the directory is down, say). Other
 * names go to each further directory in turn; the first that knows the user answers.
 * Closing it closes the further directories that hold resources (an LDAP directory's
 * workers).
 */
public final class CompositeUserDirectory implements UserDirectory, AutoCloseable {

	private final ConfiguredUserDirectory configured;

	private final List<UserDirectory> others;

	/**
	 * Creates the chain.
	 * @param configured the configured users
	 * @param others the further directories, in order
	 */
	public CompositeUserDirectory(ConfiguredUserDirectory configured, List<UserDirectory> others) {
		this.configured = configured;
		this.others = List.copyOf(others);
	}

	/** The configured users. */
	public ConfiguredUserDirectory configured() {
		return this.configured;
	}

	@Override
	public Mono<User> verify(String name, String password) {
		if (this.others.isEmpty() || this.configured.find(name).isPresent()) {
			return this.configured.verify(name, password);
		}
		return Flux.fromIterable(this.others).concatMap(directory -> directory.verify(name, password), 0).next();
	}

	@Override
	public Optional<User> find(String name) {
		Optional<User> user = this.configured.find(name);
		for (int i = 0; user.isEmpty() && i < this.others.size(); i++) {
			user = this.others.get(i).find(name);
		}
		return user;
	}

	/** Closes the further directories that need it. */
	@Override
	public void close() {
		for (UserDirectory other : this.others) {
			if (other instanceof AutoCloseable closeable) {
				try {
					closeable.close();
				}
				catch (Exception ex) {
					// Shutting down: the others are closed all the same.
					if (ex instanceof InterruptedException) {
						Thread.currentThread().interrupt();
					}
				}
			}
		}
	}

}
