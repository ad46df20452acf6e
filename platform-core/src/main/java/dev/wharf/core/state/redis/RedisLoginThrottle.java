package dev.wharf.core.state.redis;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.session.Secrets;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Mono;

/**
 * The {@link LoginThrottle} in Redis, shared by every replica, so that N replicas give a
 * guesser no more tries than one. Each bucket is one key,
 * {@code <prefix>throttle:<bucket>:<SHA-256 of account and address>} (a digest, so a name
 * sent by a client cannot make a key of any size), holding {@code "count lockedUntil
 * lastFailure"} (epoch milliseconds) with {@link #FORGET_AFTER} as its expiry. One round
 * trip each: a check reads the buckets with one {@code MGET}, a failure updates them in
 * one script, a success deletes two keys.
 *
 * <p>
 * Times come from this process's clock, as in the in-process throttle, so the replicas'
 * clocks must agree (NTP, as every Kubernetes node keeps); a bucket whose last failure is
 * older than {@link #FORGET_AFTER} by that clock counts as forgotten whatever its key's
 * expiry says. Thread-safe; never blocks.
 */
public final class RedisLoginThrottle implements LoginThrottle {

	private static final RedisScript<Long> FAILED = RedisState.script(RedisLoginThrottle.class, "throttle-failed",
			Long.class);

	private final RedisState state;

	private final Clock clock;

	/**
	 * Creates the throttle.
	 * @param state the Redis client and key prefix
	 * @param clock the time source
	 */
	public RedisLoginThrottle(RedisState state, Clock clock) {
		this.state = state;
		this.clock = clock;
	}

	@Override
	public Mono<Duration> retryAfter(String account, @Nullable String address) {
		return Mono.defer(() -> {
			List<String> keys = keys(Bucket.of(address), account, address);
			return this.state.guard(this.state.redis().opsForValue().multiGet(keys)).map(values -> {
				long now = this.clock.millis();
				long wait = 0;
				for (String value : values) {
					Failures failures = Failures.parse(value, now);
					if (failures != null) {
						wait = Math.max(wait, failures.lockedUntil() - now);
					}
				}
				return Duration.ofMillis(wait);
			});
		});
	}

	@Override
	public Mono<Void> failed(String account, @Nullable String address) {
		return Mono.defer(() -> {
			List<Bucket> buckets = Bucket.of(address);
			List<String> args = new ArrayList<>(
					List.of(Long.toString(this.clock.millis()), Long.toString(FORGET_AFTER.toMillis()),
							Long.toString(FIRST_LOCK.toMillis()), Long.toString(MAX_LOCK.toMillis())));
			buckets.forEach(bucket -> args.add(Integer.toString(bucket.free())));
			return this.state.run(FAILED, keys(buckets, account, address), args).then();
		});
	}

	@Override
	public Mono<Void> succeeded(String account, @Nullable String address) {
		return Mono.defer(() -> {
			List<Bucket> cleared = (address != null) ? List.of(Bucket.ACCOUNT, Bucket.ACCOUNT_AND_ADDRESS)
					: List.of(Bucket.ACCOUNT);
			return this.state.guard(this.state.redis().delete(keys(cleared, account, address).toArray(String[]::new)))
				.then();
		});
	}

	private List<String> keys(List<Bucket> buckets, String account, @Nullable String address) {
		List<String> keys = new ArrayList<>(buckets.size());
		for (Bucket bucket : buckets) {
			keys.add(this.state.key("throttle", bucket.name().toLowerCase(Locale.ROOT).replace('_', '-'),
					Secrets.digest(bucket.key(account, address))));
		}
		return keys;
	}

	/**
	 * A bucket as stored (the format throttle-failed.lua writes).
	 *
	 * @param count failures counted
	 * @param lockedUntil until when it is locked, epoch milliseconds
	 */
	private record Failures(long count, long lockedUntil) {

		/**
		 * The bucket, or {@code null} if there is none, it is damaged, or it is older
		 * than {@link #FORGET_AFTER}.
		 */
		static @Nullable Failures parse(@Nullable String value, long now) {
			if (value == null) {
				return null;
			}
			String[] fields = value.split(" ");
			if (fields.length != 3) {
				return null;
			}
			try {
				long last = Long.parseLong(fields[2]);
				if (now - last >= FORGET_AFTER.toMillis()) {
					return null;
				}
				return new Failures(Long.parseLong(fields[0]), Long.parseLong(fields[1]));
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}

	}

}
