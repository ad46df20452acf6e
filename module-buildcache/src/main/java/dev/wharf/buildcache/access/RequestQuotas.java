package dev.wharf.buildcache.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

/**
 * Request limits per user and per client address, as token buckets: each holds up to
 * {@code requests} tokens and refills at {@code requests} per {@code period}; a request
 * takes one token from each bucket that applies and is refused, with the time until a
 * token is back, when one is empty. Buckets of idle callers are forgotten; memory is
 * bounded by a cap on the number of buckets. Thread-safe and non-blocking.
 */
public final class RequestQuotas {

	private final @Nullable Limiter perUser;

	private final @Nullable Limiter perAddress;

	/**
	 * Creates the quotas.
	 * @param userRequests requests per period per user; 0 for no limit
	 * @param userPeriod the users' period
	 * @param addressRequests requests per period per client address; 0 for no limit
	 * @param addressPeriod the addresses' period
	 * @param clock how tokens come back: the system clock, or one tests move by hand
	 */
	public RequestQuotas(int userRequests, Duration userPeriod, int addressRequests, Duration addressPeriod,
			Clock clock) {
		this.perUser = (userRequests > 0) ? new Limiter(userRequests, userPeriod, clock) : null;
		this.perAddress = (addressRequests > 0) ? new Limiter(addressRequests, addressPeriod, clock) : null;
	}

	/** Whether any limit applies. */
	public boolean isLimited() {
		return this.perUser != null || this.perAddress != null;
	}

	/**
	 * Takes a token for a request.
	 * @param caller who sends it
	 * @return empty if the request may go ahead, else how long to wait
	 */
	public Optional<Duration> take(CacheCaller caller) {
		if (this.perAddress != null && caller.address() != null) {
			Optional<Duration> wait = this.perAddress.take(caller.address());
			if (wait.isPresent()) {
				return wait;
			}
		}
		if (this.perUser != null && caller.name() != null) {
			return this.perUser.take(caller.name());
		}
		return Optional.empty();
	}

	/** One kind of bucket, by caller. */
	private static final class Limiter {

		private final double capacity;

		private final double tokensPerNano;

		private final Cache<String, Bucket> buckets;

		private final Clock clock;

		Limiter(int requests, Duration period, Clock clock) {
			this.capacity = requests;
			this.tokensPerNano = requests / (double) period.toNanos();
			this.clock = clock;
			// A bucket idle for a whole period is full again: forgetting it changes
			// nothing. Idle on the same
			// clock as the tokens, or a bucket could be forgotten before its tokens are
			// back.
			this.buckets = Caffeine.newBuilder()
				.maximumSize(100_000)
				.expireAfterAccess(period)
				.ticker(this::nanos)
				.build();
		}

		Optional<Duration> take(String caller) {
			Bucket bucket = this.buckets.get(caller, key -> new Bucket(this.capacity, nanos()));
			synchronized (bucket) {
				long now = nanos();
				// A wall clock set back gives nothing back and takes nothing away.
				if (now > bucket.refilled) {
					bucket.tokens = Math.min(this.capacity,
							bucket.tokens + (now - bucket.refilled) * this.tokensPerNano);
					bucket.refilled = now;
				}
				if (bucket.tokens >= 1) {
					bucket.tokens -= 1;
					return Optional.empty();
				}
				long nanos = (long) Math.ceil((1 - bucket.tokens) / this.tokensPerNano);
				return Optional.of(Duration.ofNanos(nanos));
			}
		}

		/**
		 * The clock's time in nanoseconds since the epoch (a long holds them until 2262).
		 */
		private long nanos() {
			Instant now = this.clock.instant();
			return now.getEpochSecond() * 1_000_000_000L + now.getNano();
		}

	}

	private static final class Bucket {

		private double tokens;

		private long refilled;

		Bucket(double tokens, long refilled) {
			this.tokens = tokens;
			this.refilled = refilled;
		}

	}

}
