package dev.wharf.filemanager.thumbnail;

import java.util.Arrays;

import net.coobird.thumbnailator.util.exif.ExifUtils;
import net.coobird.thumbnailator.util.exif.Orientation;
import org.jspecify.annotations.Nullable;

/**
 * What a JPEG's headers tell about the memory its decoding takes: the size, the
 * components and their sampling factors (from the frame header, SOF), and whether the
 * decoder must hold every coefficient of the image at once. libjpeg, which the JDK's
 * reader uses, does that (in native memory, two bytes per sample) for progressive files
 * and for sequential files whose first scan does not carry every component; otherwise it
 * works on a strip of rows. Also where the EXIF data is (the first APP1 segment that
 * starts with {@code Exif}), for the orientation. Immutable.
 */
final class JpegFrame {

	private static final byte[] EXIF = { 'E', 'x', 'i', 'f', 0, 0 };

	private final int width;

	private final int height;

	private final int[] horizontal;

	private final int[] vertical;

	private final boolean wholeImage;

	private final int exifOffset;

	private final int exifLength;

	private JpegFrame(int width, int height, int[] horizontal, int[] vertical, boolean wholeImage, int exifOffset,
			int exifLength) {
		this.width = width;
		this.height = height;
		this.horizontal = horizontal;
		this.vertical = vertical;
		this.wholeImage = wholeImage;
		this.exifOffset = exifOffset;
		this.exifLength = exifLength;
	}

	/**
	 * Whether bytes start as a JPEG does (start of image, then a marker).
	 * @param bytes a file's bytes
	 * @return whether they may be a JPEG
	 */
	static boolean isJpeg(byte[] bytes) {
		return bytes.length >= 3 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xD8 && (bytes[2] & 0xFF) == 0xFF;
	}

	/** The width the frame header declares. */
	int width() {
		return this.width;
	}

	/** The height the frame header declares (0: given later, by a DNL marker). */
	int height() {
		return this.height;
	}

	/** How many components: 1 grey, 3 colour (YCbCr or RGB), 4 CMYK or YCCK. */
	int components() {
		return this.horizontal.length;
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
		int width = 0;
		int height = 0;
		int[] horizontal = null;
		int[] vertical = null;
		boolean progressive = false;
		int exifOffset = -1;
		int exifLength = 0;
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
				height = ((jpeg[i + 5] & 0xFF) << 8) | (jpeg[i + 6] & 0xFF);
				width = ((jpeg[i + 7] & 0xFF) << 8) | (jpeg[i + 8] & 0xFF);
				horizontal = new int[components];
				vertical = new int[components];
				for (int c = 0; c < components; c++) {
					int sampling = jpeg[i + 11 + 3 * c] & 0xFF;
					horizontal[c] = Math.max(1, sampling >> 4);
					vertical[c] = Math.max(1, sampling & 0xF);
				}
				progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
			}
			if (marker == 0xE1 && exifOffset < 0 && length >= 2 + EXIF.length
					&& Arrays.equals(jpeg, i + 4, i + 4 + EXIF.length, EXIF, 0, EXIF.length)) {
				exifOffset = i + 4;
				exifLength = length - 2;
			}
			if (marker == 0xDA) {
				if (horizontal == null || vertical == null || length < 3) {
					return null;
				}
				int scanComponents = jpeg[i + 4] & 0xFF;
				return new JpegFrame(width, height, horizontal, vertical,
						progressive || scanComponents < horizontal.length, exifOffset, exifLength);
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
		// Every path keeps a strip: a band of 8 x (v + 2) rows of each component (context
		// rows for upsampling).
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

	/**
	 * The orientation the EXIF data gives.
	 * @param jpeg the bytes this frame was read from
	 * @return the orientation, or {@code null} if there is none or it cannot be read
	 */
	@Nullable Orientation orientation(byte[] jpeg) {
		if (this.exifOffset < 0) {
			return null;
		}
		try {
			return ExifUtils
				.getOrientationFromExif(Arrays.copyOfRange(jpeg, this.exifOffset, this.exifOffset + this.exifLength));
		}
		catch (RuntimeException ex) {
			// Truncated or malformed EXIF data: no rotation, as with ImageIO's reader.
			return null;
		}
	}

	private static long ceilDiv(long a, long b) {
		return (a + b - 1) / b;
	}

}
