package dev.wharf.filemanager.thumbnail;

import org.jspecify.annotations.Nullable;

/**
 * What a JPEG's headers tell about the memory its decoding takes: the components and their sampling factors
 * (from the frame header, SOF), and whether the decoder must hold every coefficient of the image at once.
 * libjpeg, which the JDK's reader uses, does that (in native memory, two bytes per sample) for progressive
 * files and for sequential files whose first scan does not carry every component; otherwise it works on
 * a strip of rows. Immutable.
 */
final class JpegFrame {

	private final int[] horizontal;

	private final int[] vertical;

	private final boolean wholeImage;

	private JpegFrame(int[] horizontal, int[] vertical, boolean wholeImage) {
		this.horizontal = horizontal;
		this.vertical = vertical;
		this.wholeImage = wholeImage;
	}

	/** Each component's horizontal sampling factor. */
	int[] horizontal() {
		return this.horizontal.clone();
	}

	/** Each component's vertical sampling factor. */
	int[] vertical() {
		return this.vertical.clone();
	}

	/** Whether the decoder keeps every coefficient of the image. */
	boolean wholeImage() {
		return this.wholeImage;
	}

	/**
	 * Reads the markers up to the first scan.
	 * @param jpeg the file's bytes
	 * @return the frame, or {@code null} if the headers cannot be read that far
	 */
	static @Nullable JpegFrame read(byte[] jpeg) {
		if (jpeg.length < 4 || (jpeg[0] & 0xFF) != 0xFF || (jpeg[1] & 0xFF) != 0xD8) {
			return null;
		}
		int[] horizontal = null;
		int[] vertical = null;
		boolean progressive = false;
		int i = 2;
		while (i + 4 <= jpeg.length) {
			if ((jpeg[i] & 0xFF) != 0xFF) {
				return null;
			}
			int marker = jpeg[i + 1] & 0xFF;
			if (marker == 0xFF) {
				i++;
				continue;
			}
			if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
				i += 2;
				continue;
			}
			int length = ((jpeg[i + 2] & 0xFF) << 8) | (jpeg[i + 3] & 0xFF);
			if (marker == 0xD9 || length < 2 || i + 2 + length > jpeg.length) {
				return null;
			}
			if (isFrameHeader(marker) && length >= 8) {
				int components = jpeg[i + 9] & 0xFF;
				if (components == 0 || length < 8 + 3 * components) {
					return null;
				}
				horizontal = new int[components];
				vertical = new int[components];
				for (int c = 0; c < components; c++) {
					int sampling = jpeg[i + 11 + 3 * c] & 0xFF;
					horizontal[c] = Math.max(1, sampling >> 4);
					vertical[c] = Math.max(1, sampling & 0xF);
				}
				progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
			}
			if (marker == 0xDA) {
				if (horizontal == null || vertical == null || length < 3) {
					return null;
				}
				int scanComponents = jpeg[i + 4] & 0xFF;
				return new JpegFrame(horizontal, vertical, progressive || scanComponents < horizontal.length);
			}
			i += 2 + length;
		}
		return null;
	}

	/** SOF0 to SOF15, except DHT, JPG and DAC, which share the range. */
	private static boolean isFrameHeader(int marker) {
		return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
	}

	/**
	 * The native memory the decoder takes for an image of this frame.
	 * @param width the image's width
	 * @param height the image's height
	 * @return bytes: every coefficient, or a strip of rows
	 */
	long decoderBytes(int width, int height) {
		int maxHorizontal = 1;
		int maxVertical = 1;
		for (int c = 0; c < this.horizontal.length; c++) {
			maxHorizontal = Math.max(maxHorizontal, this.horizontal[c]);
			maxVertical = Math.max(maxVertical, this.vertical[c]);
		}
		// Every path keeps a strip: a band of 8 x (v + 2) rows of each component (context rows for upsampling).
		long bytes = (long) width * this.horizontal.length * 8 * (maxVertical + 2);
		if (this.wholeImage) {
			for (int c = 0; c < this.horizontal.length; c++) {
				long blocksWide = ceilDiv((long) width * this.horizontal[c], 8L * maxHorizontal);
				long blocksHigh = ceilDiv((long) height * this.vertical[c], 8L * maxVertical);
				// 64 coefficients of two bytes per block of 8 x 8 samples.
				bytes += blocksWide * blocksHigh * 128;
			}
		}
		return bytes;
	}

	private static long ceilDiv(long a, long b) {
		return (a + b - 1) / b;
	}

}
