package dev.wharf.filemanager.thumbnail;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

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
		// Black and white columns, then rows of red and blue: every 2 x 2 square holds
		// both of each pair.
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
		// Three pixels into two: the middle one is split, so each result is (2 x its own
		// + 1 x the middle) / 3.
		int[] pixels = { 0x000000, 0x0000FF, 0x0000C0 };
		assertThat(AreaShrink.shrink(IntBuffer.wrap(pixels), 3, 1, 2, 1)).containsExactly(0x000055,
				0x0000C0 * 2 / 3 + 0x55);
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

	@ParameterizedTest(name = "{0} x {1} to {2} x {3}")
	@CsvSource({ "480, 270, 356, 200", "1000, 750, 267, 200", "300, 250, 240, 200", "41, 17, 40, 3", "9, 9, 2, 2" })
	void everySizeIsTheMeanOfTheAreaEachPixelCovers(int width, int height, int targetWidth, int targetHeight) {
		Random random = new Random(width * 31L + targetWidth);
		int[] pixels = new int[width * height];
		Arrays.setAll(pixels, i -> random.nextInt() & 0xFFFFFF);
		int[] shrunk = AreaShrink.shrink(IntBuffer.wrap(pixels), width, height, targetWidth, targetHeight);
		double scaleX = (double) width / targetWidth;
		double scaleY = (double) height / targetHeight;
		for (int y = 0; y < targetHeight; y++) {
			for (int x = 0; x < targetWidth; x++) {
				for (int shift = 0; shift <= 16; shift += 8) {
					double sum = 0;
					for (int sy = (int) (y * scaleY); sy < Math.min(height, Math.ceil((y + 1) * scaleY)); sy++) {
						double coverY = Math.max(0, Math.min(sy + 1, (y + 1) * scaleY) - Math.max(sy, y * scaleY));
						for (int sx = (int) (x * scaleX); sx < Math.min(width, Math.ceil((x + 1) * scaleX)); sx++) {
							double coverX = Math.max(0, Math.min(sx + 1, (x + 1) * scaleX) - Math.max(sx, x * scaleX));
							sum += coverX * coverY * ((pixels[sy * width + sx] >> shift) & 0xFF);
						}
					}
					double mean = sum / (scaleX * scaleY);
					// Weights in 1/256ths, rounded twice: within two levels of the exact
					// mean.
					assertThat((double) ((shrunk[y * targetWidth + x] >> shift) & 0xFF))
						.as("(%d, %d) >> %d", x, y, shift)
						.isCloseTo(mean, within(2.0));
				}
			}
		}
	}

	@Test
	void growingOrTooFewPixelsIsRefused() {
		int[] pixels = new int[10 * 10];
		assertThatIllegalArgumentException().isThrownBy(() -> AreaShrink.shrink(IntBuffer.wrap(pixels), 10, 10, 11, 5));
		assertThatIllegalArgumentException().isThrownBy(() -> AreaShrink.shrink(IntBuffer.wrap(pixels), 10, 11, 5, 5));
		assertThatIllegalArgumentException().isThrownBy(() -> AreaShrink.shrink(IntBuffer.wrap(pixels), 10, 10, 0, 5));
	}

}
