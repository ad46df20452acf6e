package dev.wharf.loadtests;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class LevelResultTests {

	@TempDir
	Path dir;

	@Test
	void resultsSurviveAppendingAndReadingBack() {
		Path file = this.dir.resolve("results.tsv");
		LevelResult first = new LevelResult("socko", "nginx", "87 B", 100, 500_000, 499_990, 10, 1_000, 41_000, 900,
				4_000, 9_000);
		LevelResult second = new LevelResult("socko", "wharf-p512", "1 MiB", 100, 20_000, 20_000, 0, 50_000, 66_000, 1,
				2, 3);
		LevelResult.append(file, List.of(first));
		LevelResult.append(file, List.of(second));
		assertThat(LevelResult.read(file)).containsExactly(first, second);
	}

	@Test
	void requestsPerSecondCountOnlyAnswersOverTheLevelsWindow() {
		LevelResult result = new LevelResult("t", "wharf", "p", 10, 1_100, 1_000, 100, 0, 2_000, 0, 0, 0);
		assertThat(result.requestsPerSecond()).isCloseTo(500.0, within(0.001));
		assertThat(result.seconds()).isEqualTo(2.0);
	}

	@Test
	void aMalformedLineIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> LevelResult.parse("socko\twharf\t87 B"));
	}

	@Test
	void aLevelCountsItsWindowAnswersAndFailures() {
		AtomicLong now = new AtomicLong(1_000_000);
		LevelRecorder recorder = new LevelRecorder("actuator", "wharf", CpuClock.of(""), CpuClock.of("self"), now::get);
		LevelRecorder.Level level = recorder.declare("a", "health", 2);
		assertThat(recorder.results()).as("a level that never started is not reported").isEmpty();
		level.userStarted();
		level.request(true, 1_000);
		level.request(false, -1);
		now.addAndGet(5);
		level.userFinished();
		LevelResult result = recorder.results().get(0);
		assertThat(result.requests()).isEqualTo(2);
		assertThat(result.ok()).isEqualTo(1);
		assertThat(result.failed()).isEqualTo(1);
		assertThat(result.endMillis() - result.startMillis()).isEqualTo(5);
		assertThatIllegalArgumentException().isThrownBy(() -> recorder.declare("a", "again", 1));
	}

}
