package dev.wharf.core.storage.s3;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.TrackedBuffers;
import dev.wharf.core.storage.WriteOptions;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;

import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link PartCutter}: parts of exactly the part size but the last, never an
 * empty last part unless the file is empty, every byte kept in order, every incoming
 * buffer released at once, and slabs small enough for the JVM to allocate them cheaply.
 */
class PartCutterTests {

	private static final int PART = 1024 * 1024;

	private final TrackedBuffers buffers = new TrackedBuffers();

	private List<PartCutter.Part> cut(PartCutter cutter, byte[] content, int chunk) {
		List<PartCutter.Part> parts = new ArrayList<>();
		for (int offset = 0; offset < content.length; offset += chunk) {
			DataBuffer buffer = this.buffers.allocateBuffer(Math.min(chunk, content.length - offset));
			buffer.write(content, offset, Math.min(chunk, content.length - offset));
			parts.addAll(cutter.add(buffer));
		}
		parts.add(cutter.finish());
		return parts;
	}

	private static byte[] bytes(List<PartCutter.Part> parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (PartCutter.Part part : parts) {
			for (ByteBuffer slab : part.slabs()) {
				ByteBuffer copy = slab.duplicate();
				byte[] chunk = new byte[copy.remaining()];
				copy.get(chunk);
				out.writeBytes(chunk);
			}
		}
		return out.toByteArray();
	}

	@Test
	void partsHaveThePartSizeButTheLastAndKeepEveryByteInOrder() {
		byte[] content = randomBytes(1, 0, 3 * PART + 12_345);
		List<PartCutter.Part> parts = cut(new PartCutter(PART, content.length), content, 64 * 1024 + 7);
		assertThat(parts).extracting(PartCutter.Part::size)
			.containsExactly((long) PART, (long) PART, (long) PART, 12_345L);
		assertThat(parts).extracting(PartCutter.Part::number).containsExactly(1, 2, 3, 4);
		assertThat(parts).extracting(PartCutter.Part::last).containsExactly(false, false, false, true);
		assertThat(bytes(parts)).isEqualTo(content);
		assertThat(this.buffers.unreleased()).isZero();
		assertThat(this.buffers.peakUnreleased()).isEqualTo(1);
	}

	@Test
	void aFileOfExactlyOnePartIsOneLastPartAndAnEmptyFileOneEmptyPart() {
		byte[] content = randomBytes(2, 0, PART);
		assertThat(cut(new PartCutter(PART, WriteOptions.UNKNOWN_LENGTH), content, 8192)).singleElement()
			.satisfies(part -> assertThat(part.last()).isTrue())
			.satisfies(part -> assertThat(part.size()).isEqualTo(PART));
		assertThat(cut(new PartCutter(PART, WriteOptions.UNKNOWN_LENGTH), new byte[0], 8192)).singleElement()
			.satisfies(part -> assertThat(part.size()).isZero())
			.satisfies(part -> assertThat(part.last()).isTrue());
	}

	@Test
	void slabsStayBelowHalfOfTheSmallestG1Region() {
		byte[] content = randomBytes(3, 0, 2 * PART + 1);
		List<PartCutter.Part> parts = cut(new PartCutter(PART, content.length), content, PART);
		// Larger arrays are humongous in G1 and each takes whole regions: twice its size
		// for a 1 MiB slab.
		assertThat(parts).flatExtracting(PartCutter.Part::slabs)
			.allSatisfy(slab -> assertThat(slab.capacity()).isLessThanOrEqualTo(256 * 1024));
		assertThat(bytes(parts)).isEqualTo(content);
	}

	@Test
	void contentOfAnotherLengthThanAnnouncedFails() {
		PartCutter longer = new PartCutter(PART, 10);
		assertThatThrownBy(() -> cut(longer, new byte[11], 4)).isInstanceOf(InvalidContentException.class);
		PartCutter shorter = new PartCutter(PART, 10);
		assertThatThrownBy(() -> cut(shorter, new byte[9], 4)).isInstanceOf(InvalidContentException.class);
		assertThat(this.buffers.unreleased()).isZero();
	}

	@Test
	void moreThanTenThousandPartsAreRefusedAndAnAnnouncedLengthRaisesThePartSize() {
		PartCutter tiny = new PartCutter(1, WriteOptions.UNKNOWN_LENGTH);
		assertThatThrownBy(() -> cut(tiny, new byte[PartCutter.MAX_PARTS + 1], 100))
			.isInstanceOf(QuotaExceededException.class)
			.hasMessageContaining("part-size");
		long eightMegabytes = 8L * 1024 * 1024;
		assertThat(PartCutter.partSize(eightMegabytes, 1024L * 1024 * 1024)).isEqualTo(eightMegabytes);
		long huge = 200L * 1024 * 1024 * 1024;
		long raised = PartCutter.partSize(eightMegabytes, huge);
		assertThat(raised * PartCutter.MAX_PARTS).isGreaterThanOrEqualTo(huge);
		assertThat(raised % (1024 * 1024)).isZero();
	}

}
