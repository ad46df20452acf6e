package dev.wharf.filemanager.thumbnail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link AreaShrink}.
 */
class AreaShrinkTests {

	@Test
	void aPlainColourStaysExactlyThatColour() {
		int[] pixels = new int[480 * 270];
		Arrays.fill(pixels, 0x00FF7F01);
		int[] shrunk = AreaShrink.shrink(IntBuffer.wrap(pixels), 480, 270, 356, 200);
		assertThat(shrunk).hasSize(356 * 200).containsOnly(0x00FF7F01);
	}

	@Test
	void halvingAveragesEachSquareOfFourPixels() {
		// Black and white columns, then rows of red and blue: every 2 x 2 square holds both of each pair.
		int[] columns = new int[8 * 4];
		for (int i = 0; i < columns.length; i++) {
			columns[i] = (i % 2 == 0) ? 0x000000 : 0xFFFFFF;
		}
		assertThat(AreaShrink.shrink(IntBuffer.wrap(columns), 8, 4, 4, 2)).containsOnly(0x808080);
		int[] rows = new int[8 * 4];
		for (int i = 0; i < rows.length; i++) {
			rows[i] = ((i / 8) % 2 == 0) ? 0xFF0000 : 0x0000FF;
		}
		assertThat(AreaShrink.shrink(IntBuffer.wrap(rows), 8, 4, 4, 2)).containsOnly(0x800080);
	}

	@Test
	void everyPixelCountsByTheAreaItCovers() {
		// Three pixels into two: the middle one is split, so each result is (2 x its own + 1 x the middle) / 3.
		int[] pixels = { 0x000000, 0x0000FF, 0x0000C0 };
		assertThat(AreaShrink.shrink(IntBuffer.wrap(pixels), 3, 1, 2, 1)).containsExactly(0x000055, 0x0000C0 * 2 / 3 + 0x55);
	}

	@Test
	void pixelsInNativeMemoryAreReadInPlace() {
		ByteBuffer memory = ByteBuffer.allocateDirect(4 * 4 * 4).order(ByteOrder.nativeOrder());
		IntBuffer pixels = memory.asIntBuffer();
		for (int i = 0; i < 16; i++) {
			pixels.put(i, 0x102030);
		}
		assertThat(AreaShrink.shrink(pixels, 4, 4, 3, 2)).containsOnly(0x102030);
	}

	@Test
	void growingOrTooFewPixelsIsRefused() {
		int[] pixels = new int[10 * 10];
		assertThatIllegalArgumentException().isThrownBy(() -> AreaShrink.shrink(IntBuffer.wrap(pixels), 10, 10, 11, 5));
		assertThatIllegalArgumentException().isThrownBy(() -> AreaShrink.shrink(IntBuffer.wrap(pixels), 10, 11, 5, 5));
		assertThatIllegalArgumentException().isThrownBy(() -> AreaShrink.shrink(IntBuffer.wrap(pixels), 10, 10, 0, 5));
	}

}
