package dev.wharf.core.state.redis;

import java.time.Duration;
import java.util.List;

import dev.wharf.core.session.Secrets;
import dev.wharf.core.state.Locks;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Mono;

/**
 * {@link Locks} in Redis, shared by every replica: a lock is the key
 * {@code <prefix>lock:<name>} holding a random value of its holder, set only if absent
 * and with the time to live as its expiry ({@code SET NX PX}); renewing and releasing
 * compare the value first, in one script each, so a holder whose lock ran out and was
 * taken by another replica never extends or removes the other's.
 *
 * <p>
 * Thread-safe; never blocks.
 */
public final class RedisLocks implements Locks {

	private static final RedisScript<Long> RENEW = RedisState.script(RedisLocks.class, "lock-renew", Long.class);

	private static final RedisScript<Long> RELEASE = RedisState.script(RedisLocks.class, "lock-release", Long.class);

	private final RedisState state;

	/**
	 * Creates the locks.
	 * @param state the Redis client and key prefix
	 */
	public RedisLocks(RedisState state) {
		this.state = state;
	}

	@Override
	public Mono<Lock> tryLock(String name, Duration timeToLive) {
		return Mono.defer(() -> {
			String key = this.state.key("lock", name);
			String owner = Secrets.random(12);
			return this.state.guard(this.state.redis().opsForValue().setIfAbsent(key, owner, timeToLive))
				.filter(Boolean::booleanValue)
				.map(taken -> new RedisLock(key, owner, timeToLive));
		});
	}

	private final class RedisLock implements Lock {

		private final String key;

		private final String owner;

		private final Duration timeToLive;

		RedisLock(String key, String owner, Duration timeToLive) {
			this.key = key;
			this.owner = owner;
			this.timeToLive = timeToLive;
		}

		@Override
		public Mono<Boolean> renew() {
			return RedisLocks.this.state
				.run(RENEW, List.of(this.key), List.of(this.owner, Long.toString(this.timeToLive.toMillis())))
				.next()
				.map(renewed -> renewed == 1)
				.defaultIfEmpty(false);
		}

		@Override
		public Mono<Void> release() {
			return RedisLocks.this.state.run(RELEASE, List.of(this.key), List.of(this.owner)).then();
		}

	}

}
