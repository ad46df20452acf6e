package dev.wharf.core.state.redis;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.wharf.core.security.ExternalUser;
import dev.wharf.core.security.ExternalUserStore;
import dev.wharf.core.state.Invalidations;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link ExternalUserStore} in Redis, for replicas that share their state there and not a
 * state folder (pods whose mounts are all remote have no shared volume): one hash,
 * {@code <prefix>external-users}, whose fields are the users' names and whose values are
 * their lines ({@link ExternalUser#toLine()}).
 *
 * <p>
 * Lookups answer from a copy in memory. A replica changes its copy with each save or
 * removal it makes, and announces the change over {@link Invalidations} with the user in
 * the message, so the other replicas change theirs without asking Redis: a user who signs
 * in on one replica is known to the others before the browser sends its next request. The
 * copy is read whole from Redis at start and every {@code refresh} after, which brings
 * back what a replica missed while it was disconnected.
 *
 * <p>
 * <b>Threading.</b> Never blocks: commands run on the Redis client's event loop.
 * Thread-safe. <b>Nulls.</b> No argument may be {@code null}.
 */
public final class RedisExternalUserStore implements ExternalUserStore, AutoCloseable {

	/**
	 * The topic of a saved user; the key is the sending store's id, a colon and the
	 * user's line, URL-encoded (it then has neither spaces nor colons).
	 */
	static final String SAVED = "external-user";

	/**
	 * The topic of a removed user; the key is the sending store's id, a colon and the
	 * user's name, URL-encoded.
	 */
	static final String REMOVED = "external-user-removed";

	private static final Log logger = LogFactory.getLog(RedisExternalUserStore.class);

	private final RedisState state;

	private final Invalidations invalidations;

	private final String key;

	private final ConcurrentMap<String, ExternalUser> users = new ConcurrentHashMap<>();

	/**
	 * Counts changes to {@link #users}, so a full read that raced with one is dropped
	 * instead of undoing it.
	 */
	private final AtomicLong changes = new AtomicLong();

	private final Disposable reads;

	/**
	 * Marks this store's own announcements. They come back over pub/sub, possibly after a
	 * later change this store made, and applying them then would undo that change; this
	 * store applied its changes to the copy already.
	 */
	private final String origin = UUID.randomUUID().toString();

	/**
	 * Creates the store and starts reading the hash, at once and then every
	 * {@code refresh}.
	 * @param state the Redis client and key prefix
	 * @param invalidations where changes are announced to every replica
	 * @param refresh how often the whole hash is read again
	 */
	public RedisExternalUserStore(RedisState state, Invalidations invalidations, Duration refresh) {
		this.state = state;
		this.invalidations = invalidations;
		this.key = state.key("external-users");
		invalidations.subscribe(SAVED,
				message -> fromOthers(message).flatMap(encoded -> ExternalUser.fromLine(decode(encoded)))
					.ifPresent(this::remember));
		invalidations.subscribe(REMOVED,
				message -> fromOthers(message).map(RedisExternalUserStore::decode).ifPresent(this::forgetLocally));
		this.reads = Flux.interval(Duration.ZERO, refresh)
			.onBackpressureDrop()
			.concatMap(tick -> readAll().onErrorResume(error -> {
				logger.debug("Could not read the external users from Redis; the copy in memory stays", error);
				return Mono.empty();
			}), 1)
			.subscribe();
	}

	@Override
	public Optional<ExternalUser> find(String name) {
		return Optional.ofNullable(this.users.get(name));
	}

	@Override
	public Mono<Void> save(ExternalUser user) {
		String line = user.toLine();
		return this.state.guard(this.state.redis().<String, String>opsForHash().put(this.key, user.name(), line))
			.doOnSuccess(stored -> remember(user))
			.then(this.invalidations.publish(SAVED, this.origin + ':' + encode(line)));
	}

	@Override
	public Mono<Void> remove(String name) {
		return this.state.guard(this.state.redis().<String, String>opsForHash().remove(this.key, name))
			.doOnSuccess(removed -> forgetLocally(name))
			.then(this.invalidations.publish(REMOVED, this.origin + ':' + encode(name)));
	}

	/** Stops reading the hash. */
	@Override
	public void close() {
		this.reads.dispose();
	}

	private Mono<Void> readAll() {
		return Mono.defer(() -> {
			long before = this.changes.get();
			return this.state.guard(this.state.redis().<String, String>opsForHash().entries(this.key).collectList())
				.doOnNext(entries -> {
					Map<String, ExternalUser> read = new HashMap<>();
					for (Map.Entry<String, String> entry : entries) {
						ExternalUser.fromLine(entry.getValue())
							.ifPresentOrElse(user -> read.put(user.name(), user), () -> logger.warn(
									"Redis key " + this.key + " holds a field that is not a user: " + entry.getKey()));
					}
					replace(read, before);
				})
				.then();
		});
	}

	private synchronized void replace(Map<String, ExternalUser> read, long changesBefore) {
		if (this.changes.get() != changesBefore) {
			// A save or removal arrived while Redis was being read: the read may predate
			// it. The next one applies.
			return;
		}
		this.users.keySet().retainAll(read.keySet());
		this.users.putAll(read);
	}

	private synchronized void remember(ExternalUser user) {
		this.changes.incrementAndGet();
		this.users.put(user.name(), user);
	}

	private synchronized void forgetLocally(String name) {
		this.changes.incrementAndGet();
		this.users.remove(name);
	}

	/**
	 * The payload of another store's announcement.
	 * @param message an announcement
	 * @return its payload, or empty when this store sent it or it is malformed
	 */
	private Optional<String> fromOthers(String message) {
		int colon = message.indexOf(':');
		if (colon < 0 || message.substring(0, colon).equals(this.origin)) {
			return Optional.empty();
		}
		return Optional.of(message.substring(colon + 1));
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	private static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}

}
