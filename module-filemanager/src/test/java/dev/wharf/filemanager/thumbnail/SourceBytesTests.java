package dev.wharf.filemanager.thumbnail;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SourceBytes}: whatever the listed size, the bytes are the file's as
 * read, cut at the most a thumbnail reads.
 */
class SourceBytesTests {

	@ParameterizedTest(name = "listed {0}, read {1}, chunks of {2}, at most {3}")
	@CsvSource({ "1000, 1000, 100, 4096", "1000, 1000, 1000, 4096", "1000, 600, 128, 4096", "600, 1000, 128, 4096",
			"0, 700, 64, 4096", "5000, 5000, 333, 4096", "1000, 3000, 1000, 2048", "0, 0, 1, 4096" })
	void gathersTheBytesAsRead(long listed, int read, int chunk, long max) {
		byte[] file = new byte[read];
		new SplittableRandom(listed * 31 + read).nextBytes(file);
		SourceBytes source = new SourceBytes(listed, max);
		for (int offset = 0; offset < read; offset += chunk) {
			int count = Math.min(chunk, read - offset);
			source
				.append(DefaultDataBufferFactory.sharedInstance.wrap(Arrays.copyOfRange(file, offset, offset + count)));
		}
		byte[] expected = Arrays.copyOf(file, (int) Math.min(read, max));
		assertThat(source.bytes()).isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource({ "1000", "65536" })
	void aFileAsLargeAsListedIsGatheredInTheArrayMadeForIt(int size) {
		SourceBytes source = new SourceBytes(size, 1 << 20);
		source.append(DefaultDataBufferFactory.sharedInstance.wrap(new byte[size / 2]));
		source.append(DefaultDataBufferFactory.sharedInstance.wrap(new byte[size - size / 2]));
		assertThat(source.bytes()).hasSize(size).isSameAs(source.bytes());
	}

}
