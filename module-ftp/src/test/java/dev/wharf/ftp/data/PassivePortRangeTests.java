package dev.wharf.ftp.data;

import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link PassivePortRange}.
 */
class PassivePortRangeTests {

	@Test
	void rangesAndSinglePortsAreMergedInOrder() {
		PassivePortRange range = PassivePortRange.parse(" 30005-30009, 30000 ,30008-30010");
		assertThat(IntStream.range(0, range.size()).map(range::get).toArray()).containsExactly(30000, 30005, 30006,
				30007, 30008, 30009, 30010);
		assertThat(range.isAny()).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "0", "  " })
	void zeroOrNothingMeansAnyFreePort(String text) {
		assertThat(PassivePortRange.parse(text).isAny()).isTrue();
		assertThat(PassivePortRange.parse(text).size()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "30009-30000", "abc", "30000-", "-5", "0-10", "70000", "1,,2", "30000 - 30001x", "+1" })
	void badRangesAreRefusedWithAReason(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> PassivePortRange.parse(text))
			.withMessageNotContaining("null");
	}

}
