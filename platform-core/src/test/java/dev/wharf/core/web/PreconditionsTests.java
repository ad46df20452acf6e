package dev.wharf.core.web;

import java.time.Instant;

import dev.wharf.core.web.Preconditions.Outcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Preconditions}: the order of RFC 9110, section 13.2.2.
 */
class PreconditionsTests {

	static final String TAG = "\"t\"";

	static final Instant MODIFIED = Instant.parse("2026-01-02T03:04:05.678Z");

	static final String SAME_SECOND = "Fri, 02 Jan 2026 03:04:05 GMT";

	static final String BEFORE = "Fri, 02 Jan 2026 03:04:04 GMT";

	static final String AFTER = "Fri, 02 Jan 2026 03:04:06 GMT";

	@Test
	void withoutConditionsProceed() {
		assertThat(Preconditions.evaluate(null, null, null, null, TAG, MODIFIED)).isEqualTo(Outcome.PROCEED);
	}

	@Test
	void ifMatchFirst() {
		assertThat(Preconditions.evaluate("\"x\"", null, TAG, null, TAG, MODIFIED)).isEqualTo(Outcome.FAILED);
		assertThat(Preconditions.evaluate(TAG, BEFORE, null, null, TAG, MODIFIED)).isEqualTo(Outcome.PROCEED);
		assertThat(Preconditions.evaluate(TAG, null, TAG, null, TAG, MODIFIED)).isEqualTo(Outcome.NOT_MODIFIED);
	}

	@Test
	void ifUnmodifiedSinceOnlyWithoutIfMatch() {
		assertThat(Preconditions.evaluate(null, BEFORE, null, null, TAG, MODIFIED)).isEqualTo(Outcome.FAILED);
		assertThat(Preconditions.evaluate(null, SAME_SECOND, null, null, TAG, MODIFIED)).isEqualTo(Outcome.PROCEED);
		assertThat(Preconditions.evaluate(null, "not a date", null, null, TAG, MODIFIED)).isEqualTo(Outcome.PROCEED);
	}

	@Test
	void ifNoneMatchBeforeIfModifiedSince() {
		assertThat(Preconditions.evaluate(null, null, "\"x\"", AFTER, TAG, MODIFIED)).isEqualTo(Outcome.PROCEED);
		assertThat(Preconditions.evaluate(null, null, "W/" + TAG, BEFORE, TAG, MODIFIED))
			.isEqualTo(Outcome.NOT_MODIFIED);
	}

	@Test
	void ifModifiedSinceComparesSeconds() {
		assertThat(Preconditions.evaluate(null, null, null, SAME_SECOND, TAG, MODIFIED))
			.isEqualTo(Outcome.NOT_MODIFIED);
		assertThat(Preconditions.evaluate(null, null, null, AFTER, TAG, MODIFIED)).isEqualTo(Outcome.NOT_MODIFIED);
		assertThat(Preconditions.evaluate(null, null, null, BEFORE, TAG, MODIFIED)).isEqualTo(Outcome.PROCEED);
		assertThat(Preconditions.evaluate(null, null, null, "garbage", TAG, MODIFIED)).isEqualTo(Outcome.PROCEED);
	}

	@Test
	void ifRangeNeedsAStrongTagOrTheExactDate() {
		assertThat(Preconditions.ifRangeHolds(TAG, TAG, MODIFIED)).isTrue();
		assertThat(Preconditions.ifRangeHolds(" " + TAG + " ", TAG, MODIFIED)).isTrue();
		assertThat(Preconditions.ifRangeHolds("W/" + TAG, TAG, MODIFIED)).isFalse();
		assertThat(Preconditions.ifRangeHolds(TAG, "W/" + TAG, MODIFIED)).isFalse();
		assertThat(Preconditions.ifRangeHolds(SAME_SECOND, TAG, MODIFIED)).isTrue();
		assertThat(Preconditions.ifRangeHolds(AFTER, TAG, MODIFIED)).isFalse();
		assertThat(Preconditions.ifRangeHolds("tomorrow", TAG, MODIFIED)).isFalse();
	}

}
