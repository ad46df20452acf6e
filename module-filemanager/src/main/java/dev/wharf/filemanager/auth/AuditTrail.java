package dev.wharf.filemanager.auth;

import dev.wharf.core.security.Audit;
import dev.wharf.core.security.AuditLog;
import dev.wharf.filemanager.http.ApiErrors;
import dev.wharf.filemanager.http.Clients;
import org.jspecify.annotations.Nullable;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Records the file manager's logouts and changes in the shared {@link AuditLog} through
 * core's {@link Audit} (one structured line each: who, what, which mount and path,
 * outcome, from where), with protocol {@value #PROTOCOL}, taking who and from where from
 * the exchange. Logins are recorded by the core authenticator.
 */
public final class AuditTrail {

	/** The protocol name in audit lines. */
	public static final String PROTOCOL = "http";

	private final Audit audit;

	/**
	 * Creates the trail.
	 * @param log the shared audit log
	 */
	public AuditTrail(AuditLog log) {
		this.audit = new Audit(log, PROTOCOL, ApiErrors::outcome, "cancelled");
	}

	/**
	 * Runs a change and records its outcome: {@code success}, {@code denied}, or the kind
	 * of error.
	 * @param <T> the operation's result
	 * @param exchange the exchange, for the client's address
	 * @param caller who
	 * @param action such as {@code write}, {@code move}
	 * @param target such as {@code data:/a.txt}
	 * @param operation the change
	 * @return the change, recorded when it ends
	 */
	public <T> Mono<T> record(ServerWebExchange exchange, Caller caller, String action, String target,
			Mono<T> operation) {
		return this.audit.recorded(caller.name(), Clients.address(exchange), action, target, operation);
	}

	/**
	 * Records one event.
	 * @param exchange the exchange, for the client's address
	 * @param user who, or {@code null} if not known
	 * @param action what
	 * @param target on what, or {@code null}
	 * @param outcome how it ended
	 */
	public void record(ServerWebExchange exchange, @Nullable String user, String action, @Nullable String target,
			String outcome) {
		this.audit.record(user, Clients.address(exchange), action, target, outcome);
	}

}
