package dev.wharf.filemanager.thumbnail;

import java.io.IOException;
import java.lang.ref.WeakReference;

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

	@Test
	void aClosedStreamNoLongerHoldsItsArray() throws IOException {
		byte[] bytes = new byte[1 << 20];
		WeakReference<byte[]> array = new WeakReference<>(bytes);
		ByteArrayImageInputStream stream = new ByteArrayImageInputStream(bytes);
		assertThat(stream.length()).isEqualTo(bytes.length);
		bytes = null;
		stream.close();
		for (int i = 0; i < 50 && array.get() != null; i++) {
			System.gc();
		}
		assertThat(array.get()).as("the array of a closed stream that is still reachable").isNull();
		assertThat(stream).isNotNull();
	}

}
