package dev.wharf.staticfiles.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import dev.wharf.core.storage.StorageTestSupport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link Gzip}: both forms decompress to the input, and a stream releases every
 * input buffer.
 */
class GzipTests {

	static final byte[] TEXT = "static files, compressed once or as a stream\n".repeat(5000).getBytes();

	@Test
	void wholeBytes() throws IOException {
		byte[] compressed = Gzip.compress(TEXT);
		assertThat(compressed.length).isLessThan(TEXT.length / 20);
		assertThat(gunzip(compressed)).isEqualTo(TEXT);
		assertThat(gunzip(Gzip.compress(new byte[0]))).isEmpty();
	}

	@Test
	void streamOfChunks() throws IOException {
		for (byte[] data : List.of(TEXT, StorageTestSupport.randomBytes(5, 0, 300_000), new byte[0])) {
			List<ByteBuf> inputs = chunks(data, 7919);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			Gzip.compress(Flux.fromIterable(inputs)).doOnNext(buffer -> {
				byte[] bytes = new byte[buffer.readableBytes()];
				buffer.readBytes(bytes);
				buffer.release();
				out.writeBytes(bytes);
			}).blockLast();
			assertThat(gunzip(out.toByteArray())).isEqualTo(data);
			assertThat(inputs).allMatch(buffer -> buffer.refCnt() == 0);
		}
	}

	@Test
	void aFailingStreamReleasesItsBuffers() {
		List<ByteBuf> inputs = chunks(TEXT, 1000);
		Flux<ByteBuf> failing = Flux.fromIterable(inputs.subList(0, 3)).concatWith(Flux.error(new IOException("gone")));
		assertThatThrownBy(() -> Gzip.compress(failing).doOnNext(ByteBuf::release).blockLast())
			.hasMessageContaining("gone");
		assertThat(inputs.subList(0, 3)).allMatch(buffer -> buffer.refCnt() == 0);
		inputs.subList(3, inputs.size()).forEach(ByteBuf::release);
	}

	static List<ByteBuf> chunks(byte[] data, int size) {
		List<ByteBuf> chunks = new ArrayList<>();
		for (int i = 0; i < data.length; i += size) {
			chunks.add(Unpooled.copiedBuffer(data, i, Math.min(size, data.length - i)));
		}
		return chunks;
	}

	static byte[] gunzip(byte[] gzip) throws IOException {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			return in.readAllBytes();
		}
	}

}
