package dev.wharf.core.security;

import java.util.function.Function;

import dev.wharf.core.security.AuditLog.AuditEvent;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * One protocol's way into the {@link AuditLog}: records its changes (uploads, deletions,
 * new folders, moves) when they end, and single events such as logouts, each with the
 * protocol's name, who and from where. What a failure is called in the log, and what a
 * change that was cancelled (the client went away, {@code ABOR}) is called, are the
 * protocol's. Thread-safe.
 */
public final class Audit {

	private final AuditLog log;

	private final String protocol;

	private final Function<Throwable, String> failure;

	private final String cancelled;

	/**
	 * Creates the recorder.
	 * @param log the audit log
	 * @param protocol the protocol's name in audit lines, such as {@code ftp}
	 * @param failure the outcome word for a change that failed with an error
	 * @param cancelled the outcome word for a change that was cancelled
	 */
	public Audit(AuditLog log, String protocol, Function<Throwable, String> failure, String cancelled) {
		this.log = log;
		this.protocol = protocol;
		this.failure = failure;
		this.cancelled = cancelled;
	}

	/**
	 * Records the outcome of a change when it ends: {@code success}, the failure's word,
	 * or the cancelled word.
	 * @param <T> the change's result
	 * @param user who, or {@code null} if not known
	 * @param client from where, or {@code null}
	 * @param action such as {@code write}, {@code delete}
	 * @param target what is changed, such as {@code data:/a.txt}
	 * @param change the change
	 * @return the change, recorded when it succeeds, fails or is cancelled
	 */
	public <T> Mono<T> recorded(@Nullable String user, @Nullable String client, String action, String target,
			Mono<T> change) {
		return change.doOnSuccess(result -> record(user, client, action, target, "success"))
			.doOnError(error -> record(user, client, action, target, this.failure.apply(error)))
			.doOnCancel(() -> record(user, client, action, target, this.cancelled));
	}

	/**
	 * Records one event.
	 * @param user who, or {@code null} if not known
	 * @param client from where, or {@code null}
	 * @param action what
	 * @param target on what, or {@code null}
	 * @param outcome how it ended
	 */
	public void record(@Nullable String user, @Nullable String client, String action, @Nullable String target,
			String outcome) {
		this.log.record(new AuditEvent(this.protocol, user, action, target, outcome, client));
	}

}
