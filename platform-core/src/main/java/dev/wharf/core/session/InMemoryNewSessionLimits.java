package dev.wharf.core.session;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.session.SessionLimitException.Limit;
import dev.wharf.core.session.SessionProperties.NewSessions;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * {@link NewSessionLimits} in this process's memory: the default for one replica (with
 * several, each would allow its own share). A bucket unused for a whole period is full,
 * so it is forgotten then; memory is bounded by a cap on the number of buckets.
 * Everything runs on the subscribing thread in microseconds. Thread-safe.
 */
public final class InMemoryNewSessionLimits implements NewSessionLimits {

	/** Most buckets kept; past it the least used go (and start full again). */
	private static final long MAX_BUCKETS = 200_000;

	private final Clock clock;

	private final Bucket perUser;

	private final Bucket perAddress;

	/**
	 * Creates the limits.
	 * @param limits how many sessions may start, per user and per address, in each period
	 * @param clock the time source
	 */
	public InMemoryNewSessionLimits(NewSessions limits, Clock clock) {
		this.clock = clock;
		this.perUser = new Bucket(limits.perUser(), limits.period(), clock);
		this.perAddress = new Bucket(limits.perAddress(), limits.period(), clock);
	}

	@Override
	public Mono<Void> tryStart(String user, @Nullable String address) {
		return Mono.defer(() -> {
			long now = TimeUnit.MILLISECONDS.toNanos(this.clock.millis());
			long userWait = this.perUser.take(user, now);
			if (userWait > 0) {
				return Mono.error(new SessionLimitException(Limit.USER_RATE, Duration.ofNanos(userWait)));
			}
			if (address != null) {
				long addressWait = this.perAddress.take(address, now);
				if (addressWait > 0) {
					this.perUser.giveBack(user);
					return Mono.error(new SessionLimitException(Limit.ADDRESS_RATE, Duration.ofNanos(addressWait)));
				}
			}
			return Mono.empty();
		});
	}

	/** One kind of bucket, keyed by name. */
	private static final class Bucket {

		/** Nanoseconds one start adds to the bucket's time; 0 when there is no limit. */
		private final long interval;

		/**
		 * How far ahead of now a bucket's time may be and still allow a start: all its
		 * starts but one.
		 */
		private final long tolerance;

		private final @Nullable Cache<String, Long> fullAt;

		Bucket(int size, Duration period, Clock clock) {
			this.interval = (size > 0) ? period.toNanos() / size : 0;
			this.tolerance = (size > 0) ? period.toNanos() - this.interval : 0;
			this.fullAt = (size > 0) ? Caffeine.newBuilder()
				.maximumSize(MAX_BUCKETS)
				.expireAfterAccess(period)
				.ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
				.build() : null;
		}

		/**
		 * Takes one start: returns 0, or how many nanoseconds until one is available
		 * (nothing taken then).
		 */
		long take(String name, long now) {
			Cache<String, Long> buckets = this.fullAt;
			if (buckets == null) {
				return 0;
			}
			long[] wait = new long[1];
			buckets.asMap().compute(name, (key, previous) -> {
				long at = Math.max((previous != null) ? previous : now, now);
				if (at - now > this.tolerance) {
					wait[0] = at - now - this.tolerance;
					return previous;
				}
				return at + this.interval;
			});
			return wait[0];
		}

		/** Returns a start taken by {@link #take} that was not used. */
		void giveBack(String name) {
			Cache<String, Long> buckets = this.fullAt;
			if (buckets != null) {
				buckets.asMap().computeIfPresent(name, (key, at) -> at - this.interval);
			}
		}

	}

}
