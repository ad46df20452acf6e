package dev.wharf.loadtests;

import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencyHistogramTests {

	@ParameterizedTest
	@ValueSource(longs = { 1, 7, 31, 32, 33, 100, 1_000, 12_345, 999_999, 60_000_000 })
	void aSingleValueIsItsOwnPercentileWithinThreePercent(long micros) {
		LatencyHistogram histogram = new LatencyHistogram();
		histogram.record(micros);
		assertThat((double) histogram.percentile(50)).isCloseTo(micros, within(micros * 0.035 + 1));
		assertThat(histogram.percentile(99)).isGreaterThanOrEqualTo(micros);
	}

	@ParameterizedTest
	@ValueSource(longs = { 1, 42, 4242 })
	void percentilesOfUniformValuesMatchTheirRanks(long seed) {
		LatencyHistogram histogram = new LatencyHistogram();
		SplittableRandom random = new SplittableRandom(seed);
		long[] values = new long[20_000];
		for (int i = 0; i < values.length; i++) {
			values[i] = 100 + random.nextInt(100_000);
			histogram.record(values[i]);
		}
		java.util.Arrays.sort(values);
		for (double p : new double[] { 50, 95, 99 }) {
			long exact = values[(int) Math.ceil(values.length * p / 100) - 1];
			assertThat((double) histogram.percentile(p)).as("p%s", p).isCloseTo(exact, within(exact * 0.035));
		}
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 1 })
	void emptyOrNegativeRecordsGiveZero(int recordNegative) {
		LatencyHistogram histogram = new LatencyHistogram();
		if (recordNegative == 1) {
			histogram.record(-5);
		}
		assertThat(histogram.percentile(99)).isZero();
	}

}
