package dev.wharf.loadtests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CpuClockTests {

	@TempDir
	Path dir;

	@Test
	void cgroupCountersOfBothVersionsReadAsMicroseconds() {
		assertThat(CpuClock.cgroupMicros("123456789\n")).as("cgroup v1 cpuacct.usage, nanoseconds").isEqualTo(123_456);
		assertThat(CpuClock.cgroupMicros("usage_usec 987654\nuser_usec 900000\nsystem_usec 87654\n"))
			.as("cgroup v2 cpu.stat")
			.isEqualTo(987_654);
	}

	@Test
	void procStatIsReadAfterTheCommandWhateverItsName() {
		String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 30 0 1000 1 1";
		String[] fields = CpuClock.statFields(stat);
		assertThat(fields[0]).isEqualTo("S");
		assertThat(fields[1]).as("the parent").isEqualTo("1");
		assertThat(CpuClock.statMicros(fields, false)).as("utime + stime, 10 ms a tick").isEqualTo(3_000_000);
		assertThat(CpuClock.statMicros(fields, true)).as("with waited-for children").isEqualTo(3_100_000);
	}

	@Test
	void thisProcessAndItsTreeUseCpuAndBadSourcesAreRefused() {
		CpuClock self = CpuClock.of("self");
		CpuClock tree = CpuClock.of("pid:" + ProcessHandle.current().pid());
		long before = self.micros();
		long spin = System.nanoTime() + 300_000_000L;
		double sink = 0;
		while (System.nanoTime() < spin) {
			sink += Math.sqrt(sink + 1);
		}
		assertThat(sink).isPositive();
		assertThat(self.micros()).as("CPU spent spinning").isGreaterThan(before);
		assertThat(tree.micros()).isGreaterThanOrEqualTo(self.micros() - 20_000);
		assertThat(CpuClock.of("").micros()).isEqualTo(-1);
		assertThat(CpuClock.of("pid:999999999").micros()).as("a process that does not exist").isEqualTo(-1);
		assertThatIllegalArgumentException().isThrownBy(() -> CpuClock.of("cgroup"));
		assertThatIllegalArgumentException().isThrownBy(() -> CpuClock.of("pid:x"));
	}

	@Test
	void aLevelRecordsWhatTheServerAndLoadGeneratorUsedBetweenItsFirstStartAndLastFinish() throws IOException {
		Path usage = this.dir.resolve("cpuacct.usage");
		Path loadgen = this.dir.resolve("cpu.stat");
		Files.writeString(usage, "1000000000\n", StandardCharsets.US_ASCII);
		Files.writeString(loadgen, "usage_usec 500\n", StandardCharsets.US_ASCII);
		LevelRecorder recorder = new LevelRecorder("t", "wharf", CpuClock.of("cgroup:" + usage),
				CpuClock.of("cgroup:" + loadgen));
		LevelRecorder.Level level = recorder.declare("a", "health", 2);
		level.userStarted();
		Files.writeString(usage, "1250000000\n", StandardCharsets.US_ASCII);
		level.userStarted();
		level.request(true, 10);
		level.userFinished();
		Files.writeString(usage, "1500000000\n", StandardCharsets.US_ASCII);
		Files.writeString(loadgen, "usage_usec 2500\n", StandardCharsets.US_ASCII);
		level.request(true, 10);
		level.userFinished();
		Files.writeString(usage, "9000000000\n", StandardCharsets.US_ASCII);
		LevelResult result = recorder.results().get(0);
		assertThat(result.serverCpuMicros()).as("read at the first start and at the last finish").isEqualTo(500_000);
		assertThat(result.loadgenCpuMicros()).isEqualTo(2_000);
		assertThat(result.serverCpuMicrosPerRequest()).isEqualTo(250_000.0);
	}

	@Test
	void aLevelWhoseUsersDidNotAllFinishHasNoCpuFigure() throws IOException {
		Path usage = this.dir.resolve("cpuacct.usage");
		Files.writeString(usage, "1000\n", StandardCharsets.US_ASCII);
		LevelRecorder recorder = new LevelRecorder("t", "wharf", CpuClock.of("cgroup:" + usage), CpuClock.of(""));
		LevelRecorder.Level level = recorder.declare("a", "health", 2);
		level.userStarted();
		level.request(true, 10);
		level.userFinished();
		LevelResult result = recorder.results().get(0);
		assertThat(result.serverCpuMicros()).isEqualTo(-1);
		assertThat(result.loadgenCpuMicros()).isEqualTo(-1);
		assertThat(result.serverCpuMicrosPerRequest()).isEqualTo(-1);
	}

}
