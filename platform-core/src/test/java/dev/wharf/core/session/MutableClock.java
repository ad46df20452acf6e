package dev.wharf.core.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand. */
final class MutableClock extends Clock {

	private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

	void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	long nanos() {
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
