package dev.wharf.buildcache.access;

import java.time.Duration;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

/**
 * Request limits per user and per client address, as token buckets: each holds up to {@code requests}
 * tokens and refills at {@code requests} per {@code period}; a request takes one token from each bucket
 * that applies and is refused, with the time until a token is back, when one is empty. Buckets of idle
 * callers are forgotten; memory is bounded by a cap on the number of buckets. Thread-safe and
 * non-blocking.
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
	 */
	public RequestQuotas(int userRequests, Duration userPeriod, int addressRequests, Duration addressPeriod) {
		this.perUser = (userRequests > 0) ? new Limiter(userRequests, userPeriod) : null;
		this.perAddress = (addressRequests > 0) ? new Limiter(addressRequests, addressPeriod) : null;
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

		Limiter(int requests, Duration period) {
			this.capacity = requests;
			this.tokensPerNano = requests / (double) period.toNanos();
			// A bucket idle for a whole period is full again: forgetting it changes nothing.
			this.buckets = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(period).build();
		}

		Optional<Duration> take(String caller) {
			Bucket bucket = this.buckets.get(caller, key -> new Bucket(this.capacity, System.nanoTime()));
			synchronized (bucket) {
				long now = System.nanoTime();
				bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.refilled) * this.tokensPerNano);
				bucket.refilled = now;
				if (bucket.tokens >= 1) {
					bucket.tokens -= 1;
					return Optional.empty();
				}
				long nanos = (long) Math.ceil((1 - bucket.tokens) / this.tokensPerNano);
				return Optional.of(Duration.ofNanos(nanos));
			}
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
