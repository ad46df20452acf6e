package dev.wharf.filemanager.share;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.share.Share;
import dev.wharf.core.share.ShareStore;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.auth.CallerResolver;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.http.ApiErrors;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.Query;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Lets visitors of a share link use the file API: a request with {@code &share=<id>} acts
 * as the share (its own user, with the share's rights on the share's mount, paths below
 * the shared folder), never as its creator, and without it the caller is established as
 * always ({@link CallerResolver}). On every request, before anything else:
 * <ul>
 * <li>404 for an id that is malformed, unknown or revoked, or whose creator no longer
 * holds every right the share grants (removed, no file manager role, or a lower right on
 * the mount): the same answer for each, so ids cannot be probed;</li>
 * <li>410 once it has expired or its downloads are used up;</li>
 * <li>401 if it has a password and the request lacks its proof cookie
 * ({@code POST /api/share/<id>/proof});</li>
 * <li>403 for what its rights do not allow (listing or downloading through an upload-only
 * link, uploading through a read-only one, changing through either), and, as for
 * sessions, for a request that carries the proof cookie without {@code X-Requested-With}
 * (downloads excepted).</li>
 * </ul>
 * Each download ({@code GET} of {@code cat} or {@code zip}, not {@code HEAD} nor a
 * thumbnail) is counted against the limit first. Downloads in progress are watched: when
 * the link is revoked, expires or its creator loses the right, the transfer is cut within
 * {@code watch}. Every access, refused or not, is audited as
 * {@code share:<first 8 characters of the id>} with the file and the client's address.
 * Thread-safe; never blocks.
 */
public final class ShareVisitors {

	/** The query parameter that names the share. */
	public static final String PARAMETER = "share";

	/** How often a download in progress checks that its link still works. */
	public static final Duration WATCH = Duration.ofSeconds(1);

	private static final String UNKNOWN = "No such share link";

	private final ShareStore store;

	private final UserDirectory users;

	private final MountTree tree;

	private final CallerResolver callers;

	private final AuditTrail audit;

	private final Clock clock;

	private final Duration watch;

	/**
	 * Creates the gate.
	 * @param store the shares
	 * @param users the user directory, for creators' current rights
	 * @param tree the file manager's mounts
	 * @param callers establishes callers of requests without a share
	 * @param audit the audit trail
	 * @param clock the time, for expiry
	 * @param watch how often a download in progress checks that its link still works
	 */
	public ShareVisitors(ShareStore store, UserDirectory users, MountTree tree, CallerResolver callers,
			AuditTrail audit, Clock clock, Duration watch) {
		this.store = store;
		this.users = users;
		this.tree = tree;
		this.callers = callers;
		this.audit = audit;
		this.clock = clock;
		this.watch = watch;
	}

	/**
	 * Protects a file API handler: a user runs it as {@link CallerResolver#protect} lets
	 * them, a share's visitor as the share, if the share allows that use.
	 * @param handler the handler
	 * @param cookieReads whether {@code GET} and {@code HEAD} may carry a cookie without
	 * {@code X-Requested-With}
	 * @param use what the handler does, for the share's rights
	 * @return the protected handler
	 */
	public WebHandler protect(AuthenticatedHandler handler, boolean cookieReads, Use use) {
		WebHandler users = this.callers.protect(handler, cookieReads);
		return exchange -> {
			String id = new Query(exchange.getRequest().getURI().getRawQuery()).optional(PARAMETER);
			return (id != null) ? visit(exchange, id, cookieReads, use, handler) : users.handle(exchange);
		};
	}

	/**
	 * A share that works now: known, its creator still granting it, not expired and not
	 * used up.
	 * @param id the id a client gave
	 * @return the share; fails with {@link ApiException} 404 or 410
	 */
	public Mono<Share> live(String id) {
		if (!Share.isWellFormedId(id)) {
			return Mono.error(unknown());
		}
		return this.store.find(id).switchIfEmpty(Mono.error(ShareVisitors::unknown)).flatMap(share -> {
			if (!creatorGrants(share)) {
				return Mono.error(unknown());
			}
			if (share.isExpiredAt(this.clock.instant())) {
				return Mono.error(new ApiException(HttpStatus.GONE, "This share link has expired"));
			}
			if (share.isUsedUp()) {
				return Mono.error(usedUp());
			}
			return Mono.just(share);
		});
	}

	/**
	 * A share that works now and whose password, if it has one, the request proves.
	 * @param exchange the exchange
	 * @param id the id a client gave
	 * @param cookieReads whether a {@code GET} or {@code HEAD} may carry the proof
	 * without {@code X-Requested-With}
	 * @return the share; fails with {@link ApiException} 401, 403, 404 or 410
	 */
	public Mono<Share> proven(ServerWebExchange exchange, String id, boolean cookieReads) {
		return live(id).flatMap(share -> {
			if (!share.hasPassword()) {
				return Mono.just(share);
			}
			String sent = ShareProof.sent(exchange, share);
			if (sent == null || !ShareProof.proves(sent, share)) {
				return Mono.error(new ApiException(HttpStatus.UNAUTHORIZED,
						"This share link needs its password: send it to POST /api/share/<id>/proof as "
								+ "{\"type\":\"password\",\"value\":\"…\"}"));
			}
			HttpMethod method = exchange.getRequest().getMethod();
			boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD;
			if (!CallerResolver.hasRequestedWith(exchange.getRequest().getHeaders()) && !(cookieReads && read)) {
				return Mono.error(CallerResolver.requestedWithMissing(exchange.getRequest().getHeaders(),
						"required with a share link's password cookie"));
			}
			return Mono.just(share);
		});
	}

	/**
	 * The caller a share's visitors act as.
	 * @param share the share
	 * @return a user of the share's own, with the share's rights on its mount only
	 */
	public static Caller visitor(Share share) {
		User user = new User(who(share.id()), Set.of(Role.USER), Map.of(share.mount(), share.rights().needs()));
		return new Caller(user, null, null, share);
	}

	/**
	 * How audit lines name a share's visitors.
	 * @param id the share's id (or what a client gave as one)
	 * @return {@code share:} and the id's first 8 characters
	 */
	public static String who(String id) {
		return "share:" + ((id.length() > 8) ? id.substring(0, 8) : id);
	}

	private Mono<Void> visit(ServerWebExchange exchange, String id, boolean cookieReads, Use use,
			AuthenticatedHandler handler) {
		return proven(exchange, id, cookieReads).flatMap(share -> {
			use.check(share);
			// A thumbnail is a look at a file, not a download of it.
			boolean download = use == Use.DOWNLOAD && exchange.getRequest().getMethod() == HttpMethod.GET
					&& !new Query(exchange.getRequest().getURI().getRawQuery()).flag("thumbnail");
			Mono<Void> counted = download ? this.store.countDownload(share.id())
				.flatMap(allowed -> allowed ? Mono.<Void>empty() : Mono.error(usedUp())) : Mono.empty();
			return counted.thenReturn(share);
		})
			.doOnError(refused -> this.audit.record(exchange, who(id), use.action(), null, ApiErrors.outcome(refused)))
			.flatMap(share -> {
				Caller caller = visitor(share);
				ServerWebExchange watched = (use == Use.DOWNLOAD) ? watched(exchange, share) : exchange;
				return this.audit.record(exchange, caller, use.action(), target(exchange, share),
						Mono.defer(() -> handler.handle(watched, caller)));
			});
	}

	/** The share's mount and the paths asked for inside it, for the audit line. */
	private static String target(ServerWebExchange exchange, Share share) {
		Query query = new Query(exchange.getRequest().getURI().getRawQuery());
		List<String> paths = query.all("path");
		StringBuilder target = new StringBuilder(share.mount()).append(':');
		if (paths.isEmpty()) {
			return target.append(share.path()).toString();
		}
		for (int i = 0; i < paths.size(); i++) {
			if (i > 0) {
				target.append(',');
			}
			try {
				target.append(share.path().resolve(StoragePath.parse(paths.get(i))));
			}
			catch (InvalidStoragePathException ex) {
				target.append(share.path()).append(" (refused path)");
			}
		}
		return target.toString();
	}

	/**
	 * The exchange whose response body stops, and whose connection is closed, once the
	 * share no longer works. A zero-copy transfer could not be stopped, so downloads
	 * through a share are streamed.
	 */
	private ServerWebExchange watched(ServerWebExchange exchange, Share share) {
		AtomicBoolean ended = new AtomicBoolean();
		Mono<Long> gone = Flux.interval(this.watch)
			.concatMap(tick -> stillWorks(share))
			.filter(works -> !works)
			.next()
			.doOnNext(stop -> ended.set(true))
			.map(stop -> 0L);
		return exchange.mutate().response(new ServerHttpResponseDecorator(exchange.getResponse()) {

			@Override
			public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
				Flux<DataBuffer> cut = Flux.<DataBuffer>from(body)
					.takeUntilOther(gone)
					.concatWith(
							Mono.defer(
									() -> ended.get()
											? Mono.error(new ApiException(HttpStatus.GONE,
													"The share link stopped working during the download"))
											: Mono.empty()));
				return super.writeWith(cut);
			}

		}).build();
	}

	/**
	 * Whether a share still works; a store that cannot be asked does not end a transfer
	 * already allowed.
	 */
	private Mono<Boolean> stillWorks(Share share) {
		return this.store.find(share.id())
			.map(now -> creatorGrants(now) && !now.isExpiredAt(this.clock.instant()))
			.defaultIfEmpty(false)
			.onErrorReturn(true);
	}

	/**
	 * Whether the share's creator still holds every right it grants, on a mount the file
	 * manager still serves to them without their own login.
	 */
	boolean creatorGrants(Share share) {
		User creator = this.users.find(share.creator()).orElse(null);
		if (creator == null || !creator.hasRole(Role.USER)
				|| creator.access(share.mount()).compareTo(share.rights().needs()) < 0) {
			return false;
		}
		Mount mount = this.tree.mounts().stream().filter(m -> m.name().equals(share.mount())).findFirst().orElse(null);
		return mount != null && !mount.storage().needsUserCredentials();
	}

	private static ApiException unknown() {
		return new ApiException(HttpStatus.NOT_FOUND, UNKNOWN);
	}

	private static ApiException usedUp() {
		return new ApiException(HttpStatus.GONE, "This share link's downloads are used up");
	}

	/** What a file API handler does, for a share's rights. */
	public enum Use {

		/** Listing a folder. */
		LIST("share-list"),

		/** Downloading a file or a zip; counted against the share's limit. */
		DOWNLOAD("share-download"),

		/** Uploading a file. */
		UPLOAD("share-upload"),

		/** Creating folders, moving, copying, deleting. */
		CHANGE("share-change");

		private final String action;

		Use(String action) {
			this.action = action;
		}

		/** The audit line's action. */
		String action() {
			return this.action;
		}

		void check(Share share) {
			boolean allowed = switch (this) {
				case LIST, DOWNLOAD -> share.rights().canRead();
				case UPLOAD -> share.rights().canUpload();
				case CHANGE -> share.rights().canWrite();
			};
			if (!allowed) {
				throw new ApiException(HttpStatus.FORBIDDEN, switch (share.rights()) {
					case UPLOAD -> "This share link is for uploads only";
					case READ -> "This share link is read-only";
					case READ_WRITE -> "Not allowed through this share link";
				});
			}
		}

	}

}
