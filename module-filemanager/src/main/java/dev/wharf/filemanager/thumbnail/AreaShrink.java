package dev.wharf.filemanager.thumbnail;

import java.nio.IntBuffer;
import java.util.Arrays;

/**
 * Shrinks {@code TYPE_INT_RGB} pixels by area averaging: each pixel of the result is the
 * mean of the part of the image it covers, weighted by how much of each pixel it covers,
 * first down the columns, then along the row. Unlike bilinear sampling, which Java2D and
 * Thumbnailator use for a factor over a half, every pixel of the image counts, so fine
 * detail does not alias. Reads the pixels where they are (the native memory TurboJPEG
 * decoded into) a row at a time, holding three rows and the result. Stateless and
 * thread-safe.
 */
final class AreaShrink {

	/**
	 * Weights are fixed-point numbers with 8 bits after the point: this is a whole pixel.
	 * Red and blue are summed in one int (a 16-bit lane each) and green in another: a
	 * channel's 8 bits times a weight of at most this fit a lane, and so does the sum, as
	 * the weights of a pixel add up to this.
	 */
	private static final int ONE = 1 << 8;

	private static final int RED_BLUE = 0x00FF00FF;

	private static final int GREEN = 0x0000FF00;

	private AreaShrink() {
	}

	/**
	 * Shrinks an image.
	 * @param pixels the image, {@code width} ints a row, {@code 0x00RRGGBB}
	 * @param width its width
	 * @param height its height
	 * @param targetWidth the result's width, at most {@code width}
	 * @param targetHeight the result's height, at most {@code height}
	 * @return the result, {@code targetWidth} ints a row
	 */
	static int[] shrink(IntBuffer pixels, int width, int height, int targetWidth, int targetHeight) {
		if (targetWidth <= 0 || targetHeight <= 0 || targetWidth > width || targetHeight > height
				|| pixels.remaining() < (long) width * height) {
			throw new IllegalArgumentException(
					"Cannot shrink " + width + " x " + height + " pixels to " + targetWidth + " x " + targetHeight);
		}
		Taps columns = Taps.of(width, targetWidth);
		Taps rows = Taps.of(height, targetHeight);
		int base = pixels.position();
		int[] redBlue = new int[width];
		int[] green = new int[width];
		// Room past the row for the taps of its last pixels, whose weights there are
		// zero: every pixel of the result
		// then takes the same number of taps, which the compiler unrolls, rather than a
		// count of its own.
		int[] line = new int[width + columns.stride];
		int[] result = new int[targetWidth * targetHeight];
		for (int y = 0; y < targetHeight; y++) {
			Arrays.fill(redBlue, 0);
			Arrays.fill(green, 0);
			int first = rows.first[y];
			for (int k = 0; k < rows.count[y]; k++) {
				int weight = rows.weights[y * rows.stride + k];
				// One bulk copy of the row out of native memory: read pixel by pixel
				// through the buffer, it
				// took most of the Java time of a thumbnail in the server.
				pixels.get(base + (first + k) * width, line, 0, width);
				for (int x = 0; x < width; x++) {
					int pixel = line[x];
					redBlue[x] += (pixel & RED_BLUE) * weight;
					green[x] += (pixel & GREEN) * weight;
				}
			}
			for (int x = 0; x < width; x++) {
				line[x] = pack(redBlue[x], green[x]);
			}
			int row = y * targetWidth;
			int stride = columns.stride;
			if (stride == 3) {
				// Shrinking by up to two, as from the scaled decoding to the thumbnail:
				// the taps written out.
				for (int x = 0; x < targetWidth; x++) {
					int from = columns.first[x];
					int taps = x * 3;
					int p0 = line[from];
					int p1 = line[from + 1];
					int p2 = line[from + 2];
					int w0 = columns.weights[taps];
					int w1 = columns.weights[taps + 1];
					int w2 = columns.weights[taps + 2];
					int rb = (p0 & RED_BLUE) * w0 + (p1 & RED_BLUE) * w1 + (p2 & RED_BLUE) * w2;
					int g = (p0 & GREEN) * w0 + (p1 & GREEN) * w1 + (p2 & GREEN) * w2;
					result[row + x] = pack(rb, g);
				}
				continue;
			}
			for (int x = 0; x < targetWidth; x++) {
				int rb = 0;
				int g = 0;
				int from = columns.first[x];
				int taps = x * stride;
				for (int k = 0; k < stride; k++) {
					int pixel = line[from + k];
					int weight = columns.weights[taps + k];
					rb += (pixel & RED_BLUE) * weight;
					g += (pixel & GREEN) * weight;
				}
				result[row + x] = pack(rb, g);
			}
		}
		return result;
	}

	/** Weighted sums of the lanes back to one pixel, rounded. */
	private static int pack(int redBlue, int green) {
		return (((redBlue + 0x00800080) >>> 8) & RED_BLUE) | (((green + 0x00008000) >>> 8) & GREEN);
	}

	/**
	 * The pixels of one side that each pixel of the result covers: the first, how many,
	 * and their weights ({@code stride} a pixel), which add up to {@link #ONE}.
	 */
	private static final class Taps {

		final int[] first;

		final int[] count;

		final int[] weights;

		final int stride;

		private Taps(int[] first, int[] count, int[] weights, int stride) {
			this.first = first;
			this.count = count;
			this.weights = weights;
			this.stride = stride;
		}

		static Taps of(int length, int target) {
			double scale = (double) length / target;
			int stride = (int) Math.ceil(scale) + 1;
			int[] first = new int[target];
			int[] count = new int[target];
			int[] weights = new int[target * stride];
			for (int i = 0; i < target; i++) {
				double start = i * scale;
				double end = Math.min(length, (i + 1) * scale);
				int from = (int) Math.floor(start);
				int to = Math.min(length, (int) Math.ceil(end));
				first[i] = from;
				count[i] = to - from;
				int total = 0;
				int largest = 0;
				for (int k = 0; k < count[i]; k++) {
					double covered = Math.min(from + k + 1, end) - Math.max(from + k, start);
					int weight = (int) Math.round(covered / (end - start) * ONE);
					weights[i * stride + k] = weight;
					total += weight;
					if (weight > weights[i * stride + largest]) {
						largest = k;
					}
				}
				// Rounding must not brighten or darken: the weights add up to exactly
				// one.
				weights[i * stride + largest] += ONE - total;
			}
			return new Taps(first, count, weights, stride);
		}

	}

}
