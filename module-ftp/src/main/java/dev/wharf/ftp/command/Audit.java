package dev.wharf.ftp.command;

import java.util.Locale;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.AuditLog.AuditEvent;
import dev.wharf.core.storage.StorageException;
import dev.wharf.ftp.session.FtpUser;
import reactor.core.publisher.Mono;

/** Records FTP changes (uploads, deletions, new folders, moves) and logouts in Wharf's audit log. Thread-safe. */
final class Audit {

	private final AuditLog log;

	/**
	 * Creates the recorder.
	 * @param log the audit log
	 */
	Audit(AuditLog log) {
		this.log = log;
	}

	/**
	 * Records the outcome of a change when it completes.
	 * @param <T> the result type
	 * @param session the session
	 * @param action such as {@code write}, {@code delete}
	 * @param target what is changed
	 * @param change the change
	 * @return the change, recorded when it succeeds, fails or is aborted
	 */
	<T> Mono<T> recorded(FtpSession session, String action, String target, Mono<T> change) {
		return change.doOnSuccess(result -> record(session, action, target, "success"))
			.doOnError(error -> record(session, action, target, (error instanceof StorageException storage)
					? storage.kind().name().toLowerCase(Locale.ROOT) : "failure"))
			.doOnCancel(() -> record(session, action, target, "aborted"));
	}

	private void record(FtpSession session, String action, String target, String outcome) {
		FtpUser user = session.user();
		this.log.record(new AuditEvent("ftp", (user != null) ? user.name() : null, action, target, outcome,
				session.clientAddress()));
	}

	/** How a location is named in the audit log: mount and path. */
	static String target(MountLocation.InMount location) {
		return location.mount().name() + ":" + location.path();
	}

}
