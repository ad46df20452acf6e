package dev.wharf.core.storage.s3;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ConcatenationPlan}: whatever the sources' sizes, the parts cover every
 * byte once and in order, every part but the last is at least S3's minimum, copied parts
 * stay within S3's copy limit, and sources large enough are copied rather than streamed.
 */
class ConcatenationPlanTests {

	private static final long MB = 1024 * 1024;

	private static final long MIN = 5 * MB;

	@Test
	void largeSourcesAreCopiedAndSmallOnesStreamedIntoPartsOfTheMinimum() {
		ConcatenationPlan plan = ConcatenationPlan.of(new long[] { 8 * MB, 1 * MB, 2 * MB, 9 * MB, 3 * MB }, MIN, MIN,
				5L * 1024 * MB);
		assertRules(plan, new long[] { 8 * MB, 1 * MB, 2 * MB, 9 * MB, 3 * MB }, 5L * 1024 * MB);
		// 8 MB copied; 1 + 2 + the first 2 MB of the 9 MB source streamed; the other 7 MB
		// copied; 3 MB last.
		assertThat(plan.parts()).extracting(ConcatenationPlan.PlannedPart::copy)
			.containsExactly(true, false, true, false);
		assertThat(plan.streamedBytes()).isEqualTo(8 * MB);
	}

	@Test
	void aSourceLargerThanTheCopyLimitIsCopiedInPiecesWithoutASmallTail() {
		long[] sizes = { 23 * MB };
		ConcatenationPlan plan = ConcatenationPlan.of(sizes, MIN, MIN, 10 * MB);
		assertRules(plan, sizes, 10 * MB);
		assertThat(plan.streamedBytes()).isZero();
		assertThat(plan.parts()).extracting(ConcatenationPlan.PlannedPart::size)
			.containsExactly(10 * MB, 8 * MB, 5 * MB);
	}

	@Test
	void onlySmallSourcesAreAllStreamedAndEmptyOnesAddNothing() {
		long[] sizes = { 0, MB, 0, MB, MB, 0 };
		ConcatenationPlan plan = ConcatenationPlan.of(sizes, MIN, MIN, 5L * 1024 * MB);
		assertRules(plan, sizes, 5L * 1024 * MB);
		assertThat(plan.parts()).hasSize(1);
		assertThat(ConcatenationPlan.of(new long[] { 0, 0 }, MIN, MIN, 5L * 1024 * MB).parts()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(longs = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 })
	void randomSizesKeepEveryRule(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		long[] sizes = new long[random.nextInt(1, 40)];
		for (int i = 0; i < sizes.length; i++) {
			sizes[i] = random.nextBoolean() ? random.nextLong(0, 2 * MB) : random.nextLong(0, 40 * MB);
		}
		long maxCopy = 12 * MB;
		assertRules(ConcatenationPlan.of(sizes, MIN, 8 * MB, maxCopy), sizes, maxCopy);
	}

	private static void assertRules(ConcatenationPlan plan, long[] sizes, long maxCopy) {
		List<ConcatenationPlan.PlannedPart> parts = plan.parts();
		int source = 0;
		long offset = 0;
		for (int i = 0; i < parts.size(); i++) {
			ConcatenationPlan.PlannedPart part = parts.get(i);
			assertThat(part.number()).isEqualTo(i + 1);
			if (i < parts.size() - 1) {
				assertThat(part.size()).isGreaterThanOrEqualTo(MIN);
			}
			if (part.copy()) {
				assertThat(part.slices()).hasSize(1);
				assertThat(part.size()).isLessThanOrEqualTo(maxCopy);
			}
			for (ConcatenationPlan.Slice slice : part.slices()) {
				while (source < sizes.length && offset == sizes[source]) {
					source++;
					offset = 0;
				}
				assertThat(slice.source()).isEqualTo(source);
				assertThat(slice.offset()).isEqualTo(offset);
				assertThat(slice.length()).isPositive();
				offset += slice.length();
				assertThat(offset).isLessThanOrEqualTo(sizes[source]);
			}
		}
		while (source < sizes.length && offset == sizes[source]) {
			source++;
			offset = 0;
		}
		assertThat(source).as("every byte of every source is planned").isEqualTo(sizes.length);
	}

}
