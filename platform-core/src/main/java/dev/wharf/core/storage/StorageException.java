package dev.wharf.core.storage;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Base of every error a {@link Storage} reports. Messages name mount-relative paths only,
 * never a host path or a credential, so protocols may show them to clients.
 */
public abstract class StorageException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final StorageErrorKind kind;

	protected StorageException(StorageErrorKind kind, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.kind = kind;
	}

	/** What kind of failure this is. */
	public StorageErrorKind kind() {
		return this.kind;
	}

	/** The message, which names mount-relative paths only; never {@code null}. */
	@Override
	public String getMessage() {
		// The constructor takes a non-null message.
		return Objects.requireNonNull(super.getMessage(), "A storage error without a message");
	}

}
