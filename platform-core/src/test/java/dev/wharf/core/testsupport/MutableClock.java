package dev.wharf.core.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand, so a lock or a limit can run out without waiting. Thread-safe. */
public final class MutableClock extends Clock {

	private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

	/**
	 * Moves the clock forward.
	 * @param duration how far
	 */
	public void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	/** The time as nanoseconds since the epoch, for a Caffeine ticker. */
	public long nanos() {
		return this.now.getEpochSecond() * 1_000_000_000L + this.now.getNano();
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
		return this.now;
	}

}
