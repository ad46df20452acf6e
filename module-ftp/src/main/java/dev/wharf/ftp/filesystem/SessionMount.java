package dev.wharf.ftp.filesystem;

import java.util.function.Function;

import dev.wharf.core.security.AuthorizedStorage;
import dev.wharf.core.security.Credentials;
import dev.wharf.core.storage.Storage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One mount as one logged-in FTP user sees it: the user's {@link AuthorizedStorage} view (rights are enforced
 * there) and, for mounts that log in to their backend as the user, the user's credentials, which every call
 * carries in its Reactor context. Immutable and thread-safe.
 */
public final class SessionMount {

	private final String name;

	private final AuthorizedStorage storage;

	private final @Nullable Credentials credentials;

	/**
	 * Creates the view.
	 * @param name the mount's name
	 * @param storage the user's view of the mount
	 * @param credentials the user's login, kept only if the mount needs it
	 */
	public SessionMount(String name, AuthorizedStorage storage, @Nullable Credentials credentials) {
		this.name = name;
		this.storage = storage;
		this.credentials = storage.needsUserCredentials() ? credentials : null;
	}

	/** The mount's name. */
	public String name() {
		return this.name;
	}

	/** The user's view of the mount, for its capabilities and rights; calls must go through {@link #call}. */
	public AuthorizedStorage storage() {
		return this.storage;
	}

	/**
	 * Runs one storage call, with the user's credentials in its context where the mount needs them.
	 * @param <T> the result type
	 * @param operation the call
	 * @return its result
	 */
	public <T> Mono<T> call(Function<Storage, Mono<T>> operation) {
		Mono<T> result = Mono.defer(() -> operation.apply(this.storage));
		return (this.credentials != null) ? result.contextWrite(this.credentials.context()) : result;
	}

	/**
	 * Runs one streaming storage call, with the user's credentials in its context where the mount needs them.
	 * @param <T> the element type
	 * @param operation the call
	 * @return its elements
	 */
	public <T> Flux<T> stream(Function<Storage, Flux<T>> operation) {
		Flux<T> result = Flux.defer(() -> operation.apply(this.storage));
		return (this.credentials != null) ? result.contextWrite(this.credentials.context()) : result;
	}

	@Override
	public String toString() {
		return "SessionMount[" + this.name + "]";
	}

}
