package dev.wharf.filemanager.thumbnail;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ByteArrayImageInputStream}.
 */
class ByteArrayImageInputStreamTests {

	@Test
	void readsSeeksAndEndsLikeAnyImageInputStream() throws IOException {
		try (ByteArrayImageInputStream stream = new ByteArrayImageInputStream(new byte[] { 1, 2, 3, (byte) 0xFF })) {
			assertThat(stream.length()).isEqualTo(4);
			assertThat(stream.read()).isEqualTo(1);
			byte[] buffer = new byte[8];
			assertThat(stream.read(buffer, 2, 8 - 2)).isEqualTo(3);
			assertThat(buffer).startsWith(0, 0, 2, 3, (byte) 0xFF);
			assertThat(stream.read()).isEqualTo(-1);
			assertThat(stream.read(buffer, 0, 1)).isEqualTo(-1);
			assertThat(stream.read(buffer, 0, 0)).isZero();
			stream.seek(1);
			assertThat(stream.readUnsignedShort()).isEqualTo(0x0203);
			stream.seek(10);
			assertThat(stream.read()).isEqualTo(-1);
			assertThatExceptionOfType(IndexOutOfBoundsException.class).isThrownBy(() -> stream.read(buffer, 4, 5));
		}
	}

}
