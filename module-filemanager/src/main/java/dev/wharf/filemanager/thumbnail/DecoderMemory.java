package dev.wharf.filemanager.thumbnail;

import java.awt.image.DataBuffer;
import java.awt.image.SampleModel;
import java.io.IOException;
import java.util.Locale;

import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;

/**
 * The memory an image reader of the JDK holds while it decodes one image, besides the
 * decoded raster: what does not shrink with subsampling, because the readers work on rows
 * of the image's full width. As the readers allocate it (OpenJDK's
 * {@code com.sun.imageio.plugins}):
 * <ul>
 * <li>PNG: three rows of raw samples (the current row, the prior row for unfiltering, one
 * row as a raster);</li>
 * <li>JPEG: libjpeg's strip of rows, or every coefficient of a progressive image (see
 * {@link JpegFrame});</li>
 * <li>GIF: a row of indices; BMP and WBMP: a row of the file's pixels, and one being
 * converted;</li>
 * <li>any other reader (TIFF's strips and tiles, other plugins): as much as the whole
 * image decoded, as it may hold a strip or tile as large as the image.</li>
 * </ul>
 */
final class DecoderMemory {

	private static final String JDK_READERS = "com.sun.imageio.plugins.";

	private DecoderMemory() {
	}

	/**
	 * The bytes a reader holds besides the decoded raster.
	 * @param reader the reader, its input set
	 * @param source the file's bytes
	 * @param width the image's width
	 * @param height the image's height
	 * @param bytesPerPixel the decoded raster's bytes per pixel
	 * @return the bytes
	 * @throws IOException if the reader cannot tell its image's type
	 */
	static long bytes(ImageReader reader, byte[] source, int width, int height, int bytesPerPixel) throws IOException {
		String format = reader.getFormatName().toLowerCase(Locale.ROOT);
		if (!reader.getClass().getName().startsWith(JDK_READERS)) {
			format = "";
		}
		return switch (format) {
			case "png" -> 3 * rowBytes(reader, width, bytesPerPixel);
			case "jpeg" -> jpegBytes(source, width, height, bytesPerPixel);
			case "gif" -> 2L * width;
			case "bmp", "wbmp" -> 2 * rowBytes(reader, width, bytesPerPixel);
			default -> (long) width * height * bytesPerPixel;
		};
	}

	/**
	 * The bytes per pixel of a raster of an image type, rounded up to whole bytes (a
	 * 1-bit image counts one).
	 * @param type the image type
	 * @return the bytes
	 */
	static int bytesPerPixel(ImageTypeSpecifier type) {
		SampleModel model = type.getSampleModel(1, 1);
		int bits = DataBuffer.getDataTypeSize(model.getDataType()) * model.getNumDataElements();
		return Math.max(1, (bits + 7) / 8);
	}

	/** A row of the file's samples, at their own bit depth. */
	private static long rowBytes(ImageReader reader, int width, int bytesPerPixel) throws IOException {
		ImageTypeSpecifier raw = reader.getRawImageType(0);
		long bits = (raw != null) ? raw.getColorModel().getPixelSize() : 8L * bytesPerPixel;
		return ((long) width * bits + 7) / 8;
	}

	private static long jpegBytes(byte[] source, int width, int height, int bytesPerPixel) {
		JpegFrame frame = JpegFrame.read(source);
		if (frame == null) {
			// Headers the check cannot read: assume the costly case, every coefficient of
			// every component.
			return (long) width * height * bytesPerPixel * 2;
		}
		// The decoder's strip or coefficients, and the reader's row of the full width for
		// colour conversion.
		return frame.decoderBytes(width, height) + (long) width * bytesPerPixel;
	}

}
