package dev.wharf.core.state.redis;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.session.NewSessionLimits;
import dev.wharf.core.session.Secrets;
import dev.wharf.core.session.SessionLimitException;
import dev.wharf.core.session.SessionLimitException.Limit;
import dev.wharf.core.session.SessionProperties.NewSessions;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Mono;

/**
 * {@link NewSessionLimits} in Redis, shared by every replica: each bucket is one key,
 * {@code <prefix>session-starts:user:<digest>} or
 * {@code <prefix>session-starts:address:<digest>}, holding the time it is full again,
 * with the period as its expiry; one script takes a start from both buckets or from
 * neither, in one round trip. Times come from this process's clock, so replicas' clocks
 * must agree (NTP). Thread-safe; never blocks.
 */
public final class RedisNewSessionLimits implements NewSessionLimits {

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> TAKE = RedisState.script(RedisNewSessionLimits.class, "session-starts",
			List.class);

	private final RedisState state;

	private final Clock clock;

	private final long period;

	private final long userInterval;

	private final long addressInterval;

	/**
	 * Creates the limits.
	 * @param state the Redis client and key prefix
	 * @param limits how many sessions may start, per user and per address, in each period
	 * @param clock the time source
	 */
	public RedisNewSessionLimits(RedisState state, NewSessions limits, Clock clock) {
		this.state = state;
		this.clock = clock;
		this.period = limits.period().toMillis();
		this.userInterval = (limits.perUser() > 0) ? this.period / limits.perUser() : 0;
		this.addressInterval = (limits.perAddress() > 0) ? this.period / limits.perAddress() : 0;
	}

	@Override
	public Mono<Void> tryStart(String user, @Nullable String address) {
		if (this.userInterval == 0 && (this.addressInterval == 0 || address == null)) {
			return Mono.empty();
		}
		return Mono.defer(() -> {
			List<String> keys = new ArrayList<>(2);
			keys.add(this.state.key("session-starts", "user", Secrets.digest(user)));
			if (address != null) {
				keys.add(this.state.key("session-starts", "address", Secrets.digest(address)));
			}
			List<String> args = List.of(Long.toString(this.clock.millis()), Long.toString(this.userInterval),
					Long.toString(tolerance(this.userInterval)), Long.toString(this.addressInterval),
					Long.toString(tolerance(this.addressInterval)), Long.toString(this.period));
			return this.state.run(TAKE, keys, args).collectList().flatMap(RedisNewSessionLimits::outcome);
		});
	}

	/**
	 * How far ahead of now a bucket's time may be and still allow a start: all its starts
	 * but one.
	 */
	private long tolerance(long interval) {
		return (interval > 0) ? this.period - interval : 0;
	}

	private static Mono<Void> outcome(List<?> reply) {
		List<?> result = (reply.size() == 1 && reply.get(0) instanceof List<?> nested) ? nested : reply;
		long refusedBy = ((Number) result.get(0)).longValue();
		if (refusedBy == 0) {
			return Mono.empty();
		}
		Duration wait = Duration.ofMillis(((Number) result.get(1)).longValue());
		return Mono.error(new SessionLimitException((refusedBy == 1) ? Limit.USER_RATE : Limit.ADDRESS_RATE, wait));
	}

}
