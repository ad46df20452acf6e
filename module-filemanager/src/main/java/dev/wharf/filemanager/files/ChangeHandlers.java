package dev.wharf.filemanager.files;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.WriteMode;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Query;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The endpoints that change the tree, each {@code POST} and each audited:
 * <ul>
 * <li>{@code mkdir?path=} creates one folder (its parent must exist; 409 if the path exists);</li>
 * <li>{@code touch?path=} creates an empty file (409 if the path exists);</li>
 * <li>{@code rm?path=} deletes a file, or a folder with everything in it;</li>
 * <li>{@code mv?from=&to=} moves or renames, also between mounts (then a copy followed by deleting the
 * source, which happens only once the copy is complete);</li>
 * <li>{@code cp?from=&to=} copies a file or a folder, also between mounts.</li>
 * </ul>
 * {@code mv} and {@code cp} never replace: an existing target is a 409. Mount roots and the top level
 * cannot be removed, moved or replaced (403).
 */
public final class ChangeHandlers {

	private final MountTree tree;

	private final AuditTrail audit;

	/**
	 * Creates the handlers.
	 * @param tree the mounts
	 * @param audit the audit trail
	 */
	public ChangeHandlers(MountTree tree, AuditTrail audit) {
		this.tree = tree;
		this.audit = audit;
	}

	/** {@code mkdir}. */
	public AuthenticatedHandler mkdir() {
		return (exchange, caller) -> {
			Location location = locate(exchange, caller, "path").requireEntry("create");
			return done(exchange, this.audit.record(exchange, caller, "mkdir", location.auditTarget(),
					location.requireStorage().createDirectory(location.path())));
		};
	}

	/** {@code touch}. */
	public AuthenticatedHandler touch() {
		return (exchange, caller) -> {
			Location location = locate(exchange, caller, "path").requireEntry("create");
			return done(exchange, this.audit.record(exchange, caller, "touch", location.auditTarget(), location
				.requireStorage()
				.write(location.path(), Flux.empty(), new WriteOptions(WriteMode.CREATE_NEW, 0))));
		};
	}

	/** {@code rm}. */
	public AuthenticatedHandler rm() {
		return (exchange, caller) -> {
			Location location = locate(exchange, caller, "path").requireEntry("delete");
			return done(exchange, this.audit.record(exchange, caller, "delete", location.auditTarget(),
					location.requireStorage().delete(location.path(), true)));
		};
	}

	/** {@code mv}. */
	public AuthenticatedHandler mv() {
		return (exchange, caller) -> {
			Location from = locate(exchange, caller, "from").requireEntry("move");
			Location to = locate(exchange, caller, "to").requireEntry("move onto");
			Mono<?> move;
			if (from.requireMount().name().equals(to.requireMount().name())) {
				move = from.requireStorage().move(from.path(), to.path(), false);
			}
			else if (!from.access().canWrite()) {
				// Checked first, so a read-only source is not copied before the delete is refused.
				move = Mono.error(new AccessDeniedException("No write access to mount '" + from.requireMount().name() + "'"));
			}
			else {
				move = CrossMountCopy.copy(from.requireStorage(), from.path(), to.requireStorage(), to.path())
					.then(from.requireStorage().delete(from.path(), true));
			}
			return done(exchange,
					this.audit.record(exchange, caller, "move", from.auditTarget() + " -> " + to.auditTarget(), move));
		};
	}

	/** {@code cp}. */
	public AuthenticatedHandler cp() {
		return (exchange, caller) -> {
			Location from = locate(exchange, caller, "from").requireEntry("copy");
			Location to = locate(exchange, caller, "to").requireEntry("copy onto");
			Mono<?> copy;
			if (from.requireMount().name().equals(to.requireMount().name())) {
				copy = from.requireStorage().copy(from.path(), to.path(), false);
			}
			else {
				copy = CrossMountCopy.copy(from.requireStorage(), from.path(), to.requireStorage(), to.path());
			}
			return done(exchange,
					this.audit.record(exchange, caller, "copy", from.auditTarget() + " -> " + to.auditTarget(), copy));
		};
	}

	private Location locate(ServerWebExchange exchange, Caller caller, String parameter) {
		return this.tree.locate(caller, new Query(exchange.getRequest().getURI().getRawQuery()).required(parameter));
	}

	private static Mono<Void> done(ServerWebExchange exchange, Mono<?> operation) {
		return operation.then(Mono.defer(() -> ApiResponses.ok(exchange)));
	}

}
