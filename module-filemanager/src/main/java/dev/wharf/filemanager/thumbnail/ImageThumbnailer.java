package dev.wharf.filemanager.thumbnail;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

import net.coobird.thumbnailator.Thumbnails;
import net.coobird.thumbnailator.Thumbnails.Builder;
import net.coobird.thumbnailator.filters.ImageFilter;
import net.coobird.thumbnailator.util.exif.ExifFilterUtils;
import net.coobird.thumbnailator.util.exif.ExifUtils;
import net.coobird.thumbnailator.util.exif.Orientation;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * Makes one JPEG thumbnail from an image's bytes, defensively: the image header is read first and an image
 * whose declared size exceeds the pixel budget is refused before any pixel is decoded (image bombs); large
 * images are decoded subsampled, so memory stays small whatever their size; only the first frame is read.
 * Thumbnailator does the resizing; EXIF orientation is applied. Everything runs in memory (no ImageIO
 * cache files). Blocking and CPU-bound: call it on a worker, never on an event loop. Stateless and
 * thread-safe.
 */
public final class ImageThumbnailer {

	/** The long side is at most this many times the short side, so a panorama stays small. */
	private static final int MAX_ASPECT = 4;

	private static final float QUALITY = 0.8f;

	private final int size;

	private final long maxPixels;

	/**
	 * Creates a thumbnailer.
	 * @param size the short side of a thumbnail, in pixels
	 * @param maxPixels the most pixels (width × height) an image may declare
	 */
	public ImageThumbnailer(int size, long maxPixels) {
		this.size = size;
		this.maxPixels = maxPixels;
	}

	/**
	 * Makes a thumbnail.
	 * @param source the image file's bytes
	 * @return the JPEG, or why there is none
	 */
	public Thumbnail make(byte[] source) {
		try (ImageInputStream input = new MemoryCacheImageInputStream(new ByteArrayInputStream(source))) {
			Iterator<ImageReader> readers = ImageIO.getImageReaders(input);
			if (!readers.hasNext()) {
				return new Thumbnail.Refused(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Not an image that can be previewed");
			}
			ImageReader reader = readers.next();
			try {
				reader.setInput(input, true, false);
				int width = reader.getWidth(0);
				int height = reader.getHeight(0);
				if (width <= 0 || height <= 0) {
					return unreadable();
				}
				if ((long) width * height > this.maxPixels) {
					return new Thumbnail.Refused(HttpStatus.UNPROCESSABLE_CONTENT, "Image too large to preview: " + width
							+ " x " + height + " pixels (at most " + this.maxPixels + ")");
				}
				ImageReadParam param = reader.getDefaultReadParam();
				int subsampling = Math.max(1, Math.min(width, height) / (this.size * 2));
				param.setSourceSubsampling(subsampling, subsampling, 0, 0);
				BufferedImage image = reader.read(0, param);
				return new Thumbnail.Image(jpeg(resize(image, orientation(reader))));
			}
			finally {
				reader.dispose();
			}
		}
		catch (IOException | RuntimeException ex) {
			// Truncated, corrupt or exotic (CMYK JPEG) images: no thumbnail, and no stack trace in the log.
			return unreadable();
		}
	}

	private static Thumbnail unreadable() {
		return new Thumbnail.Refused(HttpStatus.UNPROCESSABLE_CONTENT, "Cannot read this image");
	}

	private static @Nullable Orientation orientation(ImageReader reader) {
		try {
			return ExifUtils.getExifOrientation(reader, 0);
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	private BufferedImage resize(BufferedImage image, @Nullable Orientation orientation) throws IOException {
		int width = image.getWidth();
		int height = image.getHeight();
		Builder<BufferedImage> builder = Thumbnails.of(image);
		int shortSide = Math.min(width, height);
		if (shortSide <= this.size) {
			builder.scale(1.0);
		}
		else {
			int longBox = this.size * MAX_ASPECT;
			builder.size((width <= height) ? this.size : longBox, (width <= height) ? longBox : this.size);
		}
		if (orientation != null && orientation != Orientation.TOP_LEFT) {
			ImageFilter filter = ExifFilterUtils.getFilterForOrientation(orientation);
			builder.addFilter(filter);
		}
		return opaque(builder.asBufferedImage());
	}

	/** JPEG has no transparency: transparent pixels become white rather than black. */
	private static BufferedImage opaque(BufferedImage image) {
		if (image.getType() == BufferedImage.TYPE_INT_RGB || image.getType() == BufferedImage.TYPE_3BYTE_BGR) {
			return image;
		}
		BufferedImage rgb = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = rgb.createGraphics();
		try {
			graphics.setColor(Color.WHITE);
			graphics.fillRect(0, 0, image.getWidth(), image.getHeight());
			graphics.drawImage(image, 0, 0, null);
		}
		finally {
			graphics.dispose();
		}
		return rgb;
	}

	private static byte[] jpeg(BufferedImage image) throws IOException {
		ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
		try (MemoryCacheImageOutputStream output = new MemoryCacheImageOutputStream(bytes)) {
			writer.setOutput(output);
			ImageWriteParam param = writer.getDefaultWriteParam();
			param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
			param.setCompressionQuality(QUALITY);
			writer.write(null, new IIOImage(image, null, null), param);
		}
		finally {
			writer.dispose();
		}
		return bytes.toByteArray();
	}

}
