package dev.wharf.core.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock tests move by hand, so a lock or a limit can run out without waiting; it may
 * also tick on every reading, so that two readings are never the same instant, as real
 * time would be. Thread-safe.
 */
public final class MutableClock extends Clock {

	private final AtomicReference<Instant> now;

	private final Duration tick;

	/** A clock at a fixed date that moves only by hand. */
	public MutableClock() {
		this(Instant.parse("2026-01-01T00:00:00Z"), Duration.ZERO);
	}

	/**
	 * A clock at the given time.
	 * @param start where the clock starts
	 * @param tick how far each reading moves it on; zero for a clock that moves only by
	 * hand
	 */
	public MutableClock(Instant start, Duration tick) {
		this.now = new AtomicReference<>(start);
		this.tick = tick;
	}

	/**
	 * Moves the clock forward (or back, by a negative duration).
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		this.now.updateAndGet(instant -> instant.plus(duration));
	}

	/** The time as nanoseconds since the epoch, for a Caffeine ticker. */
	public long nanos() {
		Instant instant = instant();
		return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

	@Override
	public Instant instant() {
		return this.tick.isZero() ? this.now.get() : this.now.getAndUpdate(instant -> instant.plus(this.tick));
	}

}
