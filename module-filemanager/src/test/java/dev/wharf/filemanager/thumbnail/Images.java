package dev.wharf.filemanager.thumbnail;

import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import javax.imageio.ImageIO;

/**
 * Images for thumbnail tests, made in the test: real JPEGs and PNGs, and image bombs
 * whose headers declare sizes whose pixels would not fit in memory.
 */
final class Images {

	private Images() {
	}

	/** A real image file of a given size and format ({@code jpg}, {@code png}). */
	static byte[] image(int width, int height, String format, boolean alpha) {
		BufferedImage image = new BufferedImage(width, height,
				alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = image.createGraphics();
		graphics
			.setPaint(new GradientPaint(0, 0, Color.RED, width, height, alpha ? new Color(0, 0, 255, 0) : Color.BLUE));
		graphics.fillRect(0, 0, width, height);
		graphics.dispose();
		return encode(image, format);
	}

	/**
	 * A real panorama: sky, a sun and a ridge of hills across the whole width, as a
	 * camera's stitched panorama would show.
	 * @param width the width, such as 30000
	 * @param height the height, such as 700
	 * @param format {@code jpg} or {@code png}
	 */
	static byte[] panorama(int width, int height, String format) {
		BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
		Graphics2D graphics = image.createGraphics();
		try {
			graphics.setPaint(new GradientPaint(0, 0, new Color(40, 90, 200), 0, height, new Color(250, 200, 150)));
			graphics.fillRect(0, 0, width, height);
			graphics.setColor(new Color(255, 230, 120));
			graphics.fillOval(width / 3, height / 8, height / 4, height / 4);
			int[] xs = new int[width / 50 + 3];
			int[] ys = new int[xs.length];
			for (int i = 0; i < xs.length - 2; i++) {
				xs[i] = i * 50;
				ys[i] = (int) (height * (0.6 + 0.15 * Math.sin(i / 7.0) + 0.05 * Math.sin(i / 1.3)));
			}
			xs[xs.length - 2] = width;
			ys[xs.length - 2] = height;
			xs[xs.length - 1] = 0;
			ys[xs.length - 1] = height;
			graphics.setColor(new Color(30, 80, 40));
			graphics.fillPolygon(xs, ys, xs.length);
		}
		finally {
			graphics.dispose();
		}
		return encode(image, format);
	}

	/** An image in a format ({@code jpg}, {@code png}), as ImageIO writes it. */
	static byte[] encode(BufferedImage image, String format) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try {
			ImageIO.write(image, format, out);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	/**
	 * A JPEG with an EXIF segment (APP1, after the JFIF one) whose only entry is an
	 * orientation, as cameras write it.
	 * @param jpeg a JPEG that starts with a JFIF segment (as ImageIO writes them)
	 * @param orientation 1 to 8 (6: shown turned a quarter clockwise)
	 */
	static byte[] withExifOrientation(byte[] jpeg, int orientation) {
		ByteBuffer tiff = ByteBuffer.allocate(26);
		// Big-endian TIFF header, the first IFD at 8: one entry (Orientation, SHORT, 1
		// value), no next IFD.
		tiff.put(new byte[] { 'M', 'M', 0, 42 }).putInt(8).putShort((short) 1);
		tiff.putShort((short) 0x0112).putShort((short) 3).putInt(1).putShort((short) orientation).putShort((short) 0);
		tiff.putInt(0);
		byte[] exif = ByteBuffer.allocate(6 + tiff.capacity())
			.put(new byte[] { 'E', 'x', 'i', 'f', 0, 0 })
			.put(tiff.array())
			.array();
		if ((jpeg[2] & 0xFF) != 0xFF || (jpeg[3] & 0xFF) != 0xE0) {
			throw new IllegalArgumentException("No JFIF segment after the start of the image");
		}
		int afterJfif = 4 + (((jpeg[4] & 0xFF) << 8) | (jpeg[5] & 0xFF));
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.write(jpeg, 0, afterJfif);
		out.write(0xFF);
		out.write(0xE1);
		out.writeBytes(ByteBuffer.allocate(2).putShort((short) (2 + exif.length)).array());
		out.writeBytes(exif);
		out.write(jpeg, afterJfif, jpeg.length - afterJfif);
		return out.toByteArray();
	}

	/**
	 * A valid PNG of {@code width} x 1 pixels, RGBA with 8 bits a sample, whose one row
	 * is zeros: it compresses about a thousand to one, so 66 million pixels (264 MB of
	 * samples) fit in about 256 KB.
	 */
	static byte[] thinPng(int width) {
		ByteArrayOutputStream png = new ByteArrayOutputStream();
		png.writeBytes(new byte[] { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' });
		ByteBuffer header = ByteBuffer.allocate(13)
			.putInt(width)
			.putInt(1)
			.put((byte) 8)
			.put((byte) 6)
			.put((byte) 0)
			.put((byte) 0)
			.put((byte) 0);
		chunk(png, "IHDR", header.array());
		// The filter byte of the row (0, none), then its samples: all zero.
		byte[] data = zeros(1 + 4L * width);
		chunk(png, "IDAT", data);
		chunk(png, "IEND", new byte[0]);
		return png.toByteArray();
	}

	/** So many zero bytes, deflated (zlib format): about a thousand to one. */
	private static byte[] zeros(long count) {
		Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
		ByteArrayOutputStream data = new ByteArrayOutputStream();
		byte[] zeros = new byte[1 << 20];
		byte[] out = new byte[1 << 16];
		long left = count;
		while (left > 0) {
			int chunk = (int) Math.min(zeros.length, left);
			deflater.setInput(zeros, 0, chunk);
			left -= chunk;
			while (!deflater.needsInput()) {
				data.write(out, 0, deflater.deflate(out));
			}
		}
		deflater.finish();
		while (!deflater.finished()) {
			data.write(out, 0, deflater.deflate(out));
		}
		deflater.end();
		return data.toByteArray();
	}

	/**
	 * A real 16 x 16 PNG with a compressed text chunk (zTXt) whose text inflates from
	 * about 256 KB to 264 MB.
	 */
	static byte[] pngWithInflatingText() {
		byte[] image = image(16, 16, "png", false);
		ByteArrayOutputStream text = new ByteArrayOutputStream();
		// Keyword, its NUL, compression method 0 (deflate), then the compressed text.
		text.writeBytes("Comment".getBytes(StandardCharsets.US_ASCII));
		text.write(0);
		text.write(0);
		text.writeBytes(zeros(264_000_000L));
		ByteArrayOutputStream png = new ByteArrayOutputStream();
		// The signature (8 bytes) and IHDR (25), then the text, then the rest of the
		// image.
		png.write(image, 0, 33);
		chunk(png, "zTXt", text.toByteArray());
		png.write(image, 33, image.length - 33);
		return png.toByteArray();
	}

	/**
	 * A PNG whose header declares 65535 × 65535 pixels (4.3 gigapixels) with a few bytes
	 * of data.
	 */
	static byte[] pngBomb() {
		ByteArrayOutputStream png = new ByteArrayOutputStream();
		png.writeBytes(new byte[] { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' });
		ByteBuffer header = ByteBuffer.allocate(13)
			.putInt(65535)
			.putInt(65535)
			.put((byte) 8)
			.put((byte) 2)
			.put((byte) 0)
			.put((byte) 0)
			.put((byte) 0);
		chunk(png, "IHDR", header.array());
		Deflater deflater = new Deflater();
		deflater.setInput(new byte[1024]);
		deflater.finish();
		byte[] data = new byte[256];
		int length = deflater.deflate(data);
		chunk(png, "IDAT", java.util.Arrays.copyOf(data, length));
		chunk(png, "IEND", new byte[0]);
		return png.toByteArray();
	}

	/**
	 * A real JPEG whose frame header (SOF0) was changed to declare 65500 × 65500 pixels.
	 */
	static byte[] jpegBomb() {
		byte[] jpeg = image(16, 16, "jpg", false);
		for (int i = 2; i + 8 < jpeg.length; i++) {
			if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == 0xC0) {
				// Marker, length (2), precision (1), then height and width (2 bytes
				// each).
				jpeg[i + 5] = (byte) 0xFF;
				jpeg[i + 6] = (byte) 0xDC;
				jpeg[i + 7] = (byte) 0xFF;
				jpeg[i + 8] = (byte) 0xDC;
				return jpeg;
			}
		}
		throw new IllegalStateException("No SOF0 marker in the JPEG");
	}

	private static void chunk(ByteArrayOutputStream png, String type, byte[] data) {
		byte[] typeBytes = type.getBytes(StandardCharsets.US_ASCII);
		png.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
		png.writeBytes(typeBytes);
		png.writeBytes(data);
		CRC32 crc = new CRC32();
		crc.update(typeBytes);
		crc.update(data);
		png.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
	}

}
