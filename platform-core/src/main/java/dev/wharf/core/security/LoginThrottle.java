package dev.wharf.core.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

/**
 * Slows down password guessing, shared by every protocol. Failures are counted in three buckets: per
 * account and client address together (a few free tries), per client address (one host trying many
 * accounts) and per account (many hosts trying one account); past a bucket's free tries each further
 * failure locks it for twice as long as the last, up to {@link #MAX_LOCK}. A bucket is forgotten after
 * {@link #FORGET_AFTER} without failures. Nothing sleeps: callers refuse a locked login at once and tell
 * the client when to retry.
 *
 * <p>Thread-safe; memory is bounded by a cap on the number of buckets.
 */
public final class LoginThrottle {

	/** Free failures for one account from one address. */
	static final int FREE_PER_ACCOUNT_AND_ADDRESS = 5;

	/** Free failures from one address across accounts. */
	static final int FREE_PER_ADDRESS = 20;

	/** Free failures for one account across addresses. */
	static final int FREE_PER_ACCOUNT = 50;

	/** The first lock. */
	static final Duration FIRST_LOCK = Duration.ofSeconds(1);

	/** The longest lock. */
	static final Duration MAX_LOCK = Duration.ofMinutes(15);

	/** A bucket without failures for this long starts over. */
	static final Duration FORGET_AFTER = Duration.ofMinutes(30);

	private final Clock clock;

	private final Cache<String, Failures> buckets;

	/** Creates a throttle on the system clock. */
	public LoginThrottle() {
		this(Clock.systemUTC());
	}

	/**
	 * Creates a throttle on a clock of its own, so tests can let a lock run out without waiting.
	 * @param clock the time source
	 */
	public LoginThrottle(Clock clock) {
		this.clock = clock;
		this.buckets = Caffeine.newBuilder()
			.maximumSize(200_000)
			.expireAfterWrite(FORGET_AFTER)
			.ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
			.build();
	}

	/**
	 * How long a login must wait.
	 * @param account the account name given
	 * @param address the client's address, or {@code null} if unknown
	 * @return the wait, or empty if a login may be tried now
	 */
	public Optional<Duration> retryAfter(String account, @Nullable String address) {
		Instant now = this.clock.instant();
		Duration wait = Duration.ZERO;
		for (String key : keys(account, address)) {
			Failures failures = this.buckets.getIfPresent(key);
			if (failures != null && failures.lockedUntil().isAfter(now)) {
				Duration remaining = Duration.between(now, failures.lockedUntil());
				if (remaining.compareTo(wait) > 0) {
					wait = remaining;
				}
			}
		}
		return wait.isZero() ? Optional.empty() : Optional.of(wait);
	}

	/**
	 * Counts a failed login.
	 * @param account the account name given
	 * @param address the client's address, or {@code null}
	 */
	public void failed(String account, @Nullable String address) {
		Instant now = this.clock.instant();
		String[] keys = keys(account, address);
		int[] free = (address != null)
				? new int[] { FREE_PER_ACCOUNT_AND_ADDRESS, FREE_PER_ADDRESS, FREE_PER_ACCOUNT }
				: new int[] { FREE_PER_ACCOUNT };
		for (int i = 0; i < keys.length; i++) {
			int allowed = free[i];
			this.buckets.asMap().compute(keys[i], (key, previous) -> {
				int count = (previous != null) ? previous.count() + 1 : 1;
				Instant lockedUntil = (previous != null) ? previous.lockedUntil() : Instant.MIN;
				if (count > allowed) {
					lockedUntil = now.plus(lock(count - allowed));
				}
				return new Failures(count, lockedUntil);
			});
		}
	}

	/**
	 * Clears the account's buckets after a successful login; the address's own bucket stays, so a host
	 * that guessed many accounts is still slowed down.
	 * @param account the account
	 * @param address the client's address, or {@code null}
	 */
	public void succeeded(String account, @Nullable String address) {
		this.buckets.invalidate(accountKey(account));
		if (address != null) {
			this.buckets.invalidate(pairKey(account, address));
		}
	}

	private static Duration lock(int excess) {
		int doublings = Math.min(excess - 1, 20);
		Duration lock = FIRST_LOCK.multipliedBy(1L << doublings);
		return (lock.compareTo(MAX_LOCK) > 0) ? MAX_LOCK : lock;
	}

	private static String[] keys(String account, @Nullable String address) {
		if (address == null) {
			return new String[] { accountKey(account) };
		}
		return new String[] { pairKey(account, address), "address\0" + address, accountKey(account) };
	}

	private static String pairKey(String account, String address) {
		return "pair\0" + account + '\0' + address;
	}

	private static String accountKey(String account) {
		return "account\0" + account;
	}

	private record Failures(int count, Instant lockedUntil) {
	}

}
