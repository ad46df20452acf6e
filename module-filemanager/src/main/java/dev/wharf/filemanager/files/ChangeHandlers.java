package dev.wharf.filemanager.files;

import java.util.function.BiFunction;

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
 * <li>{@code mkdir?path=} creates one folder (its parent must exist; 409 if the path
 * exists);</li>
 * <li>{@code touch?path=} creates an empty file (409 if the path exists);</li>
 * <li>{@code rm?path=} deletes a file, or a folder with everything in it;</li>
 * <li>{@code mv?from=&to=} moves or renames, also between mounts (then a copy followed by
 * deleting the source, which happens only once the copy is complete);</li>
 * <li>{@code cp?from=&to=} copies a file or a folder, also between mounts; links that
 * lead back into a folder being copied (link loops) are left out, and the answer, a 409
 * once the rest is copied, names them.</li>
 * </ul>
 * {@code mv} and {@code cp} never replace: an existing target is a 409. Mount roots and
 * the top level cannot be removed, moved or replaced (403).
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
			return done(exchange,
					this.audit.record(exchange, caller, "touch", location.auditTarget(), location.requireStorage()
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
		return (exchange, caller) -> transfer(exchange, caller, "move", (from, to) -> {
			if (sameMount(from, to)) {
				return from.requireStorage().move(from.path(), to.path(), false);
			}
			if (!from.access().canWrite()) {
				// Checked first, so a read-only source is not copied before the delete is
				// refused.
				return Mono
					.error(new AccessDeniedException("No write access to mount '" + from.requireMount().name() + "'"));
			}
			return CrossMountCopy.copy(from, to).then(from.requireStorage().delete(from.path(), true));
		});
	}

	/** {@code cp}. */
	public AuthenticatedHandler cp() {
		return (exchange, caller) -> transfer(exchange, caller, "copy", (from, to) -> sameMount(from, to)
				? from.requireStorage().copy(from.path(), to.path(), false) : CrossMountCopy.copy(from, to));
	}

	private Mono<Void> transfer(ServerWebExchange exchange, Caller caller, String action,
			BiFunction<Location, Location, Mono<?>> operation) {
		Location from = locate(exchange, caller, "from").requireEntry(action);
		Location to = locate(exchange, caller, "to").requireEntry(action + " onto");
		return done(exchange, this.audit.record(exchange, caller, action,
				from.auditTarget() + " -> " + to.auditTarget(), operation.apply(from, to)));
	}

	private static boolean sameMount(Location from, Location to) {
		return from.requireMount().name().equals(to.requireMount().name());
	}

	private Location locate(ServerWebExchange exchange, Caller caller, String parameter) {
		return this.tree.locate(caller, new Query(exchange.getRequest().getURI().getRawQuery()).required(parameter));
	}

	private static Mono<Void> done(ServerWebExchange exchange, Mono<?> operation) {
		return operation.then(Mono.defer(() -> ApiResponses.ok(exchange)));
	}

}
