package dev.wharf.filemanager.share;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.share.Share;
import dev.wharf.core.share.ShareRights;
import dev.wharf.core.share.ShareStore;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.auth.CallerResolver;
import dev.wharf.filemanager.files.Location;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.http.ApiErrors;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Clients;
import dev.wharf.filemanager.http.JsonBody;
import dev.wharf.filemanager.http.Query;
import dev.wharf.filemanager.http.SmallBody;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;
import tools.jackson.core.JsonGenerator;

/**
 * {@code /api/share}, share links, in Filestash's shape:
 * <ul>
 * <li>{@code POST /api/share} with {@link ShareOptions} makes a link and answers
 * {@code {"status":"ok","result":{"id",…}}}. The id is the server's, from a secure random
 * source: a body naming one, or {@code POST /api/share/<id>} for an id that was never
 * made, is refused (400). A user shares only what they may read, with rights they hold (a
 * read-only mount gives read-only links), and never on a mount that logs in as each user
 * (visitors have no login to give it).</li>
 * <li>{@code POST /api/share/<id>} changes the caller's link (the path cannot change; a
 * password left out or sent back as {@value #REDACTED} is kept).</li>
 * <li>{@code GET /api/share[?path=]} lists the caller's links (those at or below a path),
 * passwords shown as {@value #REDACTED}.</li>
 * <li>{@code DELETE /api/share/<id>} revokes a link: it stops working at the next
 * request.</li>
 * <li>{@code POST /api/share/<id>/proof} with {@code {"type":"password","value":…}} sets
 * the proof cookie ({@link ShareProof}); 403 for a wrong password, throttled like logins
 * (429 with {@code Retry-After}).</li>
 * <li>{@code GET /api/share/<id>} tells the link's visitors what it is (name, file or
 * folder, rights), with the answers of {@link ShareVisitors}.</li>
 * </ul>
 * Management needs a session (with {@code X-Requested-With}) or an API token. Creation,
 * changes, revocations and proofs are audited. Password hashing runs on a small bounded
 * pool, never on an event loop. Thread-safe.
 */
public final class ShareHandlers implements AutoCloseable {

	/** What a password is shown as, as in Filestash. */
	static final String REDACTED = "{{PASSWORD}}";

	/** The exact path of the collection. */
	public static final String COLLECTION = "/api/share";

	/** The prefix of one share's routes. */
	public static final String ITEM = COLLECTION + "/";

	private static final String PROOF = "/proof";

	private static final int MAX_BODY = 8 * 1024;

	private final ShareStore store;

	private final ShareVisitors visitors;

	private final MountTree tree;

	private final CallerResolver callers;

	private final LoginThrottle throttle;

	private final AuditTrail audit;

	private final Clock clock;

	private final BlockingScheduler hashing = BlockingScheduler.create("wharf-share-password", 2, 64);

	/**
	 * Creates the handlers.
	 * @param store the shares
	 * @param visitors checks links for their visitors
	 * @param tree the file manager's mounts
	 * @param callers establishes who manages links
	 * @param throttle counts wrong passwords, as for logins
	 * @param audit the audit trail
	 * @param clock the time
	 */
	public ShareHandlers(ShareStore store, ShareVisitors visitors, MountTree tree, CallerResolver callers,
			LoginThrottle throttle, AuditTrail audit, Clock clock) {
		this.store = store;
		this.visitors = visitors;
		this.tree = tree;
		this.callers = callers;
		this.throttle = throttle;
		this.audit = audit;
		this.clock = clock;
	}

	/**
	 * The handler of {@code /api/share}: {@code GET} lists, {@code POST} makes a link.
	 */
	public WebHandler collection() {
		return exchange -> this.callers.resolve(exchange, false)
			.flatMap(caller -> (exchange.getRequest().getMethod() == HttpMethod.POST) ? create(exchange, caller)
					: list(exchange, caller));
	}

	/** The handler of {@code /api/share/<id>} and {@code /api/share/<id>/proof}. */
	public WebHandler item() {
		return exchange -> {
			String rest = exchange.getRequest().getPath().pathWithinApplication().value().substring(ITEM.length());
			HttpMethod method = exchange.getRequest().getMethod();
			if (rest.endsWith(PROOF)) {
				if (method != HttpMethod.POST) {
					exchange.getResponse().getHeaders().set(HttpHeaders.ALLOW, "POST");
					return ApiResponses.error(exchange, HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed");
				}
				return proof(exchange, rest.substring(0, rest.length() - PROOF.length()));
			}
			if (rest.isEmpty() || rest.indexOf('/') >= 0) {
				return Mono.error(new ApiException(HttpStatus.NOT_FOUND, "Not Found"));
			}
			if (method == HttpMethod.GET) {
				return info(exchange, rest);
			}
			return this.callers.resolve(exchange, false)
				.flatMap(caller -> (method == HttpMethod.DELETE) ? revoke(exchange, caller, rest)
						: update(exchange, caller, rest));
		};
	}

	private Mono<Void> create(ServerWebExchange exchange, Caller caller) {
		return SmallBody.read(exchange.getRequest(), MAX_BODY).map(ShareOptions::parse).flatMap(options -> {
			if (options.has("id")) {
				throw ApiException.badRequest("Share ids are made by the server: leave 'id' out");
			}
			String path = options.path();
			if (path == null) {
				throw ApiException.badRequest("Give the 'path' to share");
			}
			Location location = this.tree.locateInMount(caller, path);
			ShareRights rights = options.rights(null);
			Instant expires = options.expires(null, this.clock.instant());
			int maxDownloads = options.maxDownloads(0);
			String password = options.password();
			return shareable(location, rights).then(hash((password != null) ? password : "")).flatMap(hash -> {
				Share share = new Share(Share.newId(), caller.name(), location.requireMount().name(), location.path(),
						rights, hash.orElse(null), expires, maxDownloads, 0, this.clock.instant());
				return this.audit.record(exchange, caller, "share-create", auditTarget(share), this.store.put(share))
					.then(Mono.defer(() -> ApiResponses.json(exchange, HttpStatus.OK, one(share), "no-store")));
			});
		});
	}

	private Mono<Void> update(ServerWebExchange exchange, Caller caller, String id) {
		return SmallBody.read(exchange.getRequest(), MAX_BODY)
			.map(ShareOptions::parse)
			.flatMap(options -> owned(caller, id).flatMap(share -> {
				String path = options.path();
				Location location = this.tree.locateInMount(caller, "/" + share.mount() + share.path());
				if (path != null && !StoragePath.parse(path).equals(virtual(share))) {
					throw ApiException.badRequest("A share link's path cannot change: make a new link");
				}
				ShareRights rights = options.rights(share.rights());
				Instant expires = options.expires(share.expires(), this.clock.instant());
				int maxDownloads = options.maxDownloads(share.maxDownloads());
				String password = options.password();
				Mono<Optional<String>> hash = (password != null) ? hash(password)
						: Mono.just(Optional.ofNullable(share.passwordHash()));
				return shareable(location, rights).then(hash).flatMap(newHash -> {
					Share changed = new Share(share.id(), share.creator(), share.mount(), share.path(), rights,
							newHash.orElse(null), expires, maxDownloads, share.downloads(), share.created());
					return this.audit
						.record(exchange, caller, "share-update", auditTarget(changed), this.store.put(changed))
						.then(Mono.defer(() -> ApiResponses.json(exchange, HttpStatus.OK, one(changed), "no-store")));
				});
			}));
	}

	/**
	 * The caller's share: 404 for another user's, 400 for an id that was never made
	 * (clients do not choose ids).
	 */
	private Mono<Share> owned(Caller caller, String id) {
		Mono<Share> found = Share.isWellFormedId(id) ? this.store.find(id) : Mono.empty();
		return found
			.switchIfEmpty(Mono.error(() -> ApiException.badRequest(
					"No share link has this id, and ids are made by the server: make a link with POST " + COLLECTION)))
			.flatMap(share -> share.creator().equals(caller.name()) ? Mono.just(share)
					: Mono.error(new ApiException(HttpStatus.NOT_FOUND, "No such share link")));
	}

	private Mono<Void> revoke(ServerWebExchange exchange, Caller caller, String id) {
		return this.store.remove(caller.name(), id).flatMap(removed -> {
			this.audit.record(exchange, caller.name(), "share-revoke", ShareVisitors.who(id),
					removed ? "success" : "not_found");
			return removed ? ApiResponses.ok(exchange)
					: Mono.error(new ApiException(HttpStatus.NOT_FOUND, "No such share link"));
		});
	}

	private Mono<Void> list(ServerWebExchange exchange, Caller caller) {
		String below = new Query(exchange.getRequest().getURI().getRawQuery()).optional("path");
		StoragePath prefix = (below != null) ? StoragePath.parse(below) : StoragePath.root();
		return this.store.list(caller.name())
			.filter(share -> virtual(share).startsWith(prefix))
			.collectList()
			.flatMap(shares -> {
				JsonBody json = JsonBody.write(64 + shares.size() * 320, out -> {
					out.writeStartObject().writeStringProperty("status", "ok").writeArrayPropertyStart("results");
					for (Share share : shares) {
						out.writeStartObject();
						fields(out, share);
						out.writeEndObject();
					}
					out.writeEndArray().writeEndObject();
				});
				return ApiResponses.json(exchange, HttpStatus.OK, json, "no-store");
			});
	}

	private Mono<Void> proof(ServerWebExchange exchange, String id) {
		if (!CallerResolver.hasRequestedWith(exchange.getRequest().getHeaders())) {
			// It sets a cookie: a form on another site must not be able to post it.
			return Mono.error(CallerResolver.requestedWithMissing(exchange.getRequest().getHeaders(),
					"required to prove a share link's password"));
		}
		String client = Clients.address(exchange);
		String account = ShareVisitors.who(id);
		return this.visitors.live(id)
			.doOnError(refused -> this.audit.record(exchange, account, "share-proof", null, ApiErrors.outcome(refused)))
			.flatMap(
					share -> SmallBody.read(exchange.getRequest(), MAX_BODY).map(ShareOptions::proof).flatMap(given -> {
						String hash = share.passwordHash();
						if (hash == null) {
							return ApiResponses.ok(exchange);
						}
						return this.throttle.retryAfter(account, client).flatMap(wait -> {
							if (!wait.isZero()) {
								this.audit.record(exchange, account, "share-proof", null, "throttled");
								return Mono.error(new ApiException(HttpStatus.TOO_MANY_REQUESTS,
										"Too many wrong passwords, try again later", wait));
							}
							return Mono.fromCallable(() -> PasswordHashing.matches(given, hash))
								.subscribeOn(this.hashing)
								.flatMap(right -> {
									if (!right) {
										this.audit.record(exchange, account, "share-proof", null, "failure");
										return this.throttle.failed(account, client)
											.onErrorResume(error -> Mono.empty())
											.then(Mono.error(new ApiException(HttpStatus.FORBIDDEN, "Wrong password")));
									}
									this.audit.record(exchange, account, "share-proof", null, "success");
									exchange.getResponse().addCookie(ShareProof.cookie(exchange, share));
									return this.throttle.succeeded(account, client)
										.onErrorResume(error -> Mono.empty())
										.then(Mono.defer(() -> ApiResponses.ok(exchange)));
								});
						});
					}));
	}

	private Mono<Void> info(ServerWebExchange exchange, String id) {
		return this.visitors.proven(exchange, id, false)
			.doOnError(refused -> this.audit.record(exchange, ShareVisitors.who(id), "share-open", null,
					ApiErrors.outcome(refused)))
			.flatMap(share -> {
				Caller visitor = ShareVisitors.visitor(share);
				Location root = this.tree.locateInMount(visitor, "/");
				return root.requireStorage().stat(root.path()).flatMap(entry -> {
					this.audit.record(exchange, visitor.name(), "share-open", auditTarget(share), "success");
					String name = share.path().isRoot() ? share.mount() : share.path().name();
					JsonBody json = JsonBody.write(256, out -> {
						out.writeStartObject()
							.writeStringProperty("status", "ok")
							.writeObjectPropertyStart("result")
							.writeStringProperty("id", share.id())
							.writeStringProperty("name", name)
							.writeStringProperty("type", entry.isDirectory() ? "directory" : "file");
						rights(out, share);
						out.writeEndObject().writeEndObject();
					});
					return ApiResponses.json(exchange, HttpStatus.OK, json, "no-store");
				});
			});
	}

	/**
	 * Checks that a user may share a location with rights: they may read it, and hold the
	 * rights.
	 */
	private Mono<Void> shareable(Location location, ShareRights rights) {
		if (location.requireMount().storage().needsUserCredentials()) {
			throw ApiException.badRequest("Files of mount '" + location.requireMount().name()
					+ "' cannot be shared: it logs in to its backend as each user, and visitors have no login");
		}
		if (location.access().compareTo(rights.needs()) < 0) {
			throw new ApiException(HttpStatus.FORBIDDEN, "You can only share with rights you hold: mount '"
					+ location.requireMount().name() + "' is read-only for you");
		}
		return location.requireStorage().stat(location.path()).flatMap(entry -> {
			if (rights == ShareRights.UPLOAD && !entry.isDirectory()) {
				return Mono.error(ApiException.badRequest("An upload-only link shares a folder, not a file"));
			}
			return Mono.<Void>empty();
		});
	}

	/** The hash of a password, on the hashing pool; empty for no password. */
	private Mono<Optional<String>> hash(String password) {
		if (password.isEmpty()) {
			return Mono.just(Optional.empty());
		}
		return Mono.fromCallable(() -> Optional.of(PasswordHashing.hash(password))).subscribeOn(this.hashing);
	}

	private static StoragePath virtual(Share share) {
		return StoragePath.root().resolve(share.mount()).resolve(share.path());
	}

	private static String auditTarget(Share share) {
		return ShareVisitors.who(share.id()) + " " + share.mount() + ":" + share.path();
	}

	private static JsonBody one(Share share) {
		return JsonBody.write(384, out -> {
			out.writeStartObject().writeStringProperty("status", "ok").writeObjectPropertyStart("result");
			fields(out, share);
			out.writeEndObject().writeEndObject();
		});
	}

	private static void fields(JsonGenerator json, Share share) {
		json.writeStringProperty("id", share.id())
			.writeStringProperty("path", virtual(share).toString())
			.writeStringProperty("url", "s/" + share.id());
		rights(json, share);
		if (share.hasPassword()) {
			json.writeStringProperty("password", REDACTED);
		}
		else {
			json.writeNullProperty("password");
		}
		json.writeNumberProperty("downloads", share.downloads())
			.writeNumberProperty("created", share.created().toEpochMilli());
	}

	private static void rights(JsonGenerator json, Share share) {
		json.writeBooleanProperty("can_read", share.rights().canRead())
			.writeBooleanProperty("can_upload", share.rights().canUpload())
			.writeBooleanProperty("can_write", share.rights().canWrite())
			.writeBooleanProperty("password_required", share.hasPassword());
		Instant expires = share.expires();
		if (expires != null) {
			json.writeNumberProperty("expire", expires.toEpochMilli());
		}
		else {
			json.writeNullProperty("expire");
		}
		json.writeNumberProperty("max_downloads", share.maxDownloads());
	}

	/** Stops the password-hashing workers. */
	@Override
	public void close() {
		this.hashing.dispose();
	}

}
