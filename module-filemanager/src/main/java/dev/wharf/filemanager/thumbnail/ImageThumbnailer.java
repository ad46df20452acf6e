package dev.wharf.filemanager.thumbnail;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.awt.image.DirectColorModel;
import java.awt.image.Raster;
import java.awt.image.SinglePixelPackedSampleModel;
import java.awt.image.WritableRaster;
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
import javax.imageio.stream.MemoryCacheImageOutputStream;

import net.coobird.thumbnailator.Thumbnails;
import net.coobird.thumbnailator.Thumbnails.Builder;
import net.coobird.thumbnailator.util.exif.ExifFilterUtils;
import net.coobird.thumbnailator.util.exif.ExifUtils;
import net.coobird.thumbnailator.util.exif.Orientation;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * Makes one JPEG thumbnail from an image's bytes, defensively. The image's header is read
 * first; an image that declares more pixels than the pixel budget is refused before any
 * pixel is decoded (that bounds the CPU time). Memory is bounded by a budget on the bytes
 * the decoding takes: the reader's buffers (for PNG three rows of the full width, for
 * JPEG a strip of rows or, if progressive, every coefficient), the decoded raster and its
 * resized copy. The image is decoded subsampled, chosen by the side that limits the
 * thumbnail (the long side of a panorama: a 30000 x 700 image is decoded at about 1600 x
 * 37), so the raster holds at most twice the thumbnail's resolution, or less, down to the
 * thumbnail's own, where the budget needs it. Only an image that exceeds the budget even
 * then is refused, such as a PNG of 66 million x 1 pixels, whose full-width rows alone
 * take hundreds of megabytes. Only the first frame is read, and metadata only of JPEGs
 * (for the EXIF orientation), so compressed PNG text cannot inflate in memory.
 * Thumbnailator does the resizing. Everything runs in memory, reading the source in
 * place.
 *
 * <p>
 * Where libjpeg-turbo's TurboJPEG library is installed ({@link TurboJpeg}), a JPEG is
 * decoded by it already scaled down in the inverse DCT (1/2, 1/4 or 1/8, the smallest
 * that still covers the thumbnail), so the full-size image is never made, and every
 * thumbnail is encoded by it: together a third of the CPU of ImageIO's subsampled
 * decoding. The same header checks and budget apply (the budget counts the library's copy
 * of the file); a JPEG it cannot take (CMYK, over the budget, unreadable) goes to
 * ImageIO, which refuses it with the reason or decodes it as before. Blocking and
 * CPU-bound: call it on a worker, never on an event loop. Stateless and thread-safe.
 */
public final class ImageThumbnailer {

	/**
	 * The long side is at most this many times the short side, so a panorama stays small.
	 */
	private static final int MAX_ASPECT = 4;

	private static final float QUALITY = 0.8f;

	/** What the resizing and the JPEG conversion hold per pixel (one int). */
	private static final int RESIZED_BYTES_PER_PIXEL = 4;

	/**
	 * The scaled decodings of libjpeg-turbo that have SIMD code (3/8, 5/8... have none
	 * and cost more than 1/2).
	 */
	private static final int[] JPEG_SCALES = { 8, 4, 2, 1 };

	private final int size;

	private final long maxPixels;

	private final long maxDecodedBytes;

	private final @Nullable TurboJpeg turbo;

	/**
	 * Creates a thumbnailer.
	 * @param size the short side of a thumbnail, in pixels
	 * @param maxPixels the most pixels (width × height) an image may declare
	 * @param maxDecodedBytes the most memory one image may take to decode and resize
	 * @param nativeJpeg whether to use libjpeg-turbo's TurboJPEG library where it is
	 * installed
	 */
	public ImageThumbnailer(int size, long maxPixels, long maxDecodedBytes, boolean nativeJpeg) {
		this(size, maxPixels, maxDecodedBytes, nativeJpeg ? TurboJpeg.installed() : null);
	}

	/**
	 * Creates a thumbnailer.
	 * @param size the short side of a thumbnail, in pixels
	 * @param maxPixels the most pixels (width × height) an image may declare
	 * @param maxDecodedBytes the most memory one image may take to decode and resize
	 * @param turbo the TurboJPEG library, or {@code null} for ImageIO alone
	 */
	ImageThumbnailer(int size, long maxPixels, long maxDecodedBytes, @Nullable TurboJpeg turbo) {
		this.size = size;
		this.maxPixels = maxPixels;
		this.maxDecodedBytes = maxDecodedBytes;
		this.turbo = turbo;
	}

	/** The short side of a thumbnail, in pixels. */
	public int size() {
		return this.size;
	}

	/** Whether JPEGs are decoded scaled by libjpeg-turbo. */
	public boolean decodesJpegScaled() {
		return this.turbo != null;
	}

	/**
	 * Makes a thumbnail.
	 * @param source the image file's bytes
	 * @return the JPEG, or why there is none
	 */
	public Thumbnail make(byte[] source) {
		try {
			TurboJpeg turbo = this.turbo;
			JpegFrame frame = (turbo != null && JpegFrame.isJpeg(source)) ? JpegFrame.read(source) : null;
			Plan scaled = (frame != null) ? scaledPlan(frame, source.length) : null;
			if (turbo != null && frame != null && scaled != null) {
				Thumbnail thumbnail = scaledJpeg(turbo, source, frame, scaled);
				if (thumbnail != null) {
					return thumbnail;
				}
			}
			Thumbnail thumbnail = withReader(source, (reader, jpeg) -> thumbnail(reader, source, jpeg));
			return (thumbnail != null) ? thumbnail : notAnImage();
		}
		catch (IOException | RuntimeException ex) {
			// Truncated, corrupt or exotic (CMYK JPEG) images: no thumbnail, and no stack
			// trace in the log.
			return unreadable();
		}
	}

	/**
	 * How an image would be decoded, from its header alone: scaled by libjpeg-turbo if
	 * that fits the budget, or else by ImageIO, whether or not that fits.
	 * @param source the image file's bytes
	 * @return the plan
	 * @throws IOException if the bytes are no image whose size can be read
	 */
	Plan plan(byte[] source) throws IOException {
		JpegFrame frame = (this.turbo != null && JpegFrame.isJpeg(source)) ? JpegFrame.read(source) : null;
		Plan scaled = (frame != null) ? scaledPlan(frame, source.length) : null;
		if (scaled != null) {
			return scaled;
		}
		Plan plan = withReader(source, (reader, jpeg) -> plan(reader, source, reader.getWidth(0), reader.getHeight(0)));
		if (plan == null) {
			throw new IOException("Not an image");
		}
		return plan;
	}

	/**
	 * Runs a task with the reader of an image's format, or answers {@code null} if no
	 * reader knows it.
	 */
	private static <T> @Nullable T withReader(byte[] source, ReaderTask<T> task) throws IOException {
		try (ImageInputStream input = new ByteArrayImageInputStream(source)) {
			Iterator<ImageReader> readers = ImageIO.getImageReaders(input);
			if (!readers.hasNext()) {
				return null;
			}
			ImageReader reader = readers.next();
			try {
				boolean jpeg = reader.getFormatName().equalsIgnoreCase("jpeg");
				reader.setInput(input, true, !jpeg);
				return task.run(reader, jpeg);
			}
			finally {
				reader.dispose();
			}
		}
	}

	private Thumbnail thumbnail(ImageReader reader, byte[] source, boolean jpeg) throws IOException {
		int width = reader.getWidth(0);
		int height = reader.getHeight(0);
		Thumbnail.Refused refused = checkSize(width, height);
		if (refused != null) {
			return refused;
		}
		Plan plan = plan(reader, source, width, height);
		if (plan.bytes() > this.maxDecodedBytes) {
			return new Thumbnail.Refused(HttpStatus.UNPROCESSABLE_CONTENT,
					"Image too large to preview: " + width + " x " + height + " pixels need " + megabytes(plan.bytes())
							+ " MB to decode (at most " + megabytes(this.maxDecodedBytes) + " MB)");
		}
		ImageReadParam param = reader.getDefaultReadParam();
		param.setSourceSubsampling(plan.subsampling(), plan.subsampling(), 0, 0);
		BufferedImage image = reader.read(0, param);
		return new Thumbnail.Image(jpeg(resize(image, plan, jpeg ? orientation(reader) : null)));
	}

	/**
	 * A JPEG's thumbnail decoded scaled by libjpeg-turbo, or {@code null} if the library
	 * could not decode it.
	 */
	private @Nullable Thumbnail scaledJpeg(TurboJpeg turbo, byte[] source, JpegFrame frame, Plan plan)
			throws IOException {
		int scale = plan.subsampling();
		int width = ceilDiv(frame.width(), scale);
		int height = ceilDiv(frame.height(), scale);
		int[] pixels = turbo.decode(source, width, height,
				decoded -> AreaShrink.shrink(decoded, width, height, plan.width(), plan.height()));
		if (pixels == null) {
			return null;
		}
		return new Thumbnail.Image(jpeg(oriented(rgb(pixels, plan.width(), plan.height()), frame.orientation(source))));
	}

	/**
	 * How libjpeg-turbo would decode a JPEG, or {@code null} if ImageIO must make or
	 * refuse its thumbnail: the colours are CMYK (which the library cannot turn into
	 * RGB), the size is unknown or over the pixel budget, or the decoding would take more
	 * memory than the budget (ImageIO then says by how much, or fits it by reading the
	 * file in place). The memory: the library's strip (or coefficients) and its copy of
	 * the file, the scaled image, the shrinking's rows and result, and the encoding's
	 * copy and buffer.
	 */
	private @Nullable Plan scaledPlan(JpegFrame frame, int sourceBytes) {
		int width = frame.width();
		int height = frame.height();
		if (frame.components() == 4 || width <= 0 || height <= 0 || (long) width * height > this.maxPixels) {
			return null;
		}
		Box box = box(width, height);
		int scale = jpegScale(width, height);
		long bytes = frame.decoderBytes(width, height) + sourceBytes
				+ 4L * ceilDiv(width, scale) * ceilDiv(height, scale) + 3L * 4 * ceilDiv(width, scale)
				+ 4L * box.width() * box.height() * RESIZED_BYTES_PER_PIXEL;
		return (bytes <= this.maxDecodedBytes) ? new Plan(scale, bytes, box.width(), box.height(), true) : null;
	}

	/**
	 * The factor a JPEG is scaled down by in its decoding: the largest libjpeg-turbo does
	 * fast whose image still covers the thumbnail, so that shrinking it to the thumbnail
	 * (by area averaging) halves it at most, unless the image is more than eight times
	 * the thumbnail.
	 * @param width the image's width
	 * @param height the image's height
	 * @return 8, 4, 2 or 1
	 */
	int jpegScale(int width, int height) {
		Box box = box(width, height);
		for (int scale : JPEG_SCALES) {
			if (ceilDiv(width, scale) >= box.width() && ceilDiv(height, scale) >= box.height()) {
				return scale;
			}
		}
		return 1;
	}

	/** {@code TYPE_INT_RGB} pixels as an image, without copying them. */
	private static BufferedImage rgb(int[] pixels, int width, int height) {
		int[] masks = { 0xFF0000, 0xFF00, 0xFF };
		WritableRaster raster = Raster.createPackedRaster(new DataBufferInt(pixels, pixels.length), width, height,
				width, masks, null);
		return new BufferedImage(new DirectColorModel(24, masks[0], masks[1], masks[2]), raster, false, null);
	}

	private Thumbnail.@Nullable Refused checkSize(int width, int height) {
		if (width <= 0 || height <= 0) {
			return unreadable();
		}
		if ((long) width * height > this.maxPixels) {
			return new Thumbnail.Refused(HttpStatus.UNPROCESSABLE_CONTENT, "Image too large to preview: " + width
					+ " x " + height + " pixels (at most " + this.maxPixels + ")");
		}
		return null;
	}

	/**
	 * The subsampling for an image: the finest that fits the budget, from at most twice
	 * the thumbnail's resolution down to the thumbnail's own; past the budget even then,
	 * the coarsest, whose bytes tell by how much.
	 */
	private Plan plan(ImageReader reader, byte[] source, int width, int height) throws IOException {
		Box box = box(width, height);
		double scale = box.scale();
		int thumbnailWidth = box.width();
		int thumbnailHeight = box.height();
		int bytesPerPixel = DecoderMemory.bytesPerPixel(reader.getImageTypes(0).next());
		long fixed = DecoderMemory.bytes(reader, source, width, height, bytesPerPixel)
				+ 2L * thumbnailWidth * thumbnailHeight * RESIZED_BYTES_PER_PIXEL;
		int coarsest = Math.max(1, (int) Math.floor(1 / scale));
		int subsampling = Math.max(1, Math.min(coarsest, (int) Math.ceil(1 / (2 * scale))));
		long bytes = fixed + decodedBytes(width, height, subsampling, bytesPerPixel);
		// The reader's buffers do not shrink with the subsampling: past the budget
		// without the raster, give up.
		while (bytes > this.maxDecodedBytes && subsampling < coarsest && fixed <= this.maxDecodedBytes) {
			subsampling++;
			bytes = fixed + decodedBytes(width, height, subsampling, bytesPerPixel);
		}
		if (bytes > this.maxDecodedBytes && subsampling < coarsest) {
			subsampling = coarsest;
			bytes = fixed + decodedBytes(width, height, subsampling, bytesPerPixel);
		}
		return new Plan(subsampling, bytes, thumbnailWidth, thumbnailHeight, false);
	}

	/**
	 * The thumbnail's size: it fits a box of size x (size * MAX_ASPECT), and is never
	 * larger than the image.
	 */
	private Box box(int width, int height) {
		int shortSide = Math.min(width, height);
		int longSide = Math.max(width, height);
		double scale = Math.min(1.0,
				Math.min((double) this.size / shortSide, (double) this.size * MAX_ASPECT / longSide));
		return new Box(scale, (int) Math.max(1, Math.round(width * scale)),
				(int) Math.max(1, Math.round(height * scale)));
	}

	/** The decoded raster and the resizer's copy of it, one int per pixel. */
	private static long decodedBytes(int width, int height, int subsampling, int bytesPerPixel) {
		return (long) ceilDiv(width, subsampling) * ceilDiv(height, subsampling)
				* (bytesPerPixel + RESIZED_BYTES_PER_PIXEL);
	}

	private static int ceilDiv(int a, int b) {
		return (int) (((long) a + b - 1) / b);
	}

	private static long megabytes(long bytes) {
		return (bytes + (1 << 20) - 1) >> 20;
	}

	private static Thumbnail.Refused notAnImage() {
		return new Thumbnail.Refused(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Not an image that can be previewed");
	}

	private static Thumbnail.Refused unreadable() {
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

	private static BufferedImage resize(BufferedImage image, Plan plan, @Nullable Orientation orientation)
			throws IOException {
		Builder<BufferedImage> builder = Thumbnails.of(image);
		if (image.getWidth() == plan.width() && image.getHeight() == plan.height()) {
			builder.scale(1.0);
		}
		else {
			builder.forceSize(plan.width(), plan.height());
		}
		// Turned afterwards: Thumbnailator forces the size onto the turned image, which
		// squashed a portrait
		// photo (orientation 6 or 8, as phones take them) into a landscape thumbnail.
		return opaque(oriented(builder.asBufferedImage(), orientation));
	}

	/** An image turned and flipped as its EXIF orientation says. */
	private static BufferedImage oriented(BufferedImage image, @Nullable Orientation orientation) {
		if (orientation == null || orientation == Orientation.TOP_LEFT) {
			return image;
		}
		return ExifFilterUtils.getFilterForOrientation(orientation).apply(image);
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

	private byte[] jpeg(BufferedImage image) throws IOException {
		TurboJpeg turbo = this.turbo;
		if (turbo != null) {
			byte[] jpeg = turbo.encode(pixels(image), image.getWidth(), image.getHeight(), Math.round(QUALITY * 100));
			if (jpeg != null) {
				return jpeg;
			}
		}
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

	/**
	 * An image's pixels as {@code TYPE_INT_RGB} ints, a row after another: its own array
	 * where it has one.
	 */
	private static int[] pixels(BufferedImage image) {
		int width = image.getWidth();
		int height = image.getHeight();
		if (image.getType() == BufferedImage.TYPE_INT_RGB
				&& image.getRaster().getDataBuffer() instanceof DataBufferInt ints
				&& image.getRaster().getSampleModel() instanceof SinglePixelPackedSampleModel model
				&& model.getScanlineStride() == width && ints.getNumBanks() == 1 && ints.getOffset() == 0
				&& image.getRaster().getSampleModelTranslateX() == 0
				&& image.getRaster().getSampleModelTranslateY() == 0 && ints.getData().length == width * height) {
			return ints.getData();
		}
		BufferedImage rgb = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = rgb.createGraphics();
		try {
			graphics.drawImage(image, 0, 0, null);
		}
		finally {
			graphics.dispose();
		}
		return ((DataBufferInt) rgb.getRaster().getDataBuffer()).getData();
	}

	/**
	 * The thumbnail's size in an image.
	 *
	 * @param scale the thumbnail's size over the image's
	 * @param width the thumbnail's width
	 * @param height the thumbnail's height
	 */
	private record Box(double scale, int width, int height) {
	}

	/**
	 * How an image is decoded.
	 *
	 * @param subsampling the source subsampling, in both directions
	 * @param bytes the memory the decoding and resizing take, at most the budget
	 * @param width the thumbnail's width, before any EXIF rotation
	 * @param height the thumbnail's height, before any EXIF rotation
	 * @param scaled whether libjpeg-turbo decodes the image scaled down by
	 * {@code subsampling} in its inverse DCT; otherwise ImageIO decodes it subsampled
	 */
	record Plan(int subsampling, long bytes, int width, int height, boolean scaled) {
	}

	/** Work done with an image's reader, its input set. */
	@FunctionalInterface
	private interface ReaderTask<T> {

		T run(ImageReader reader, boolean jpeg) throws IOException;

	}

}
