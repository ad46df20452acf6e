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
 * Images for thumbnail tests, made in the test: real JPEGs and PNGs, and image bombs whose headers declare
 * sizes whose pixels would not fit in memory.
 */
final class Images {

	private Images() {
	}

	/** A real image file of a given size and format ({@code jpg}, {@code png}). */
	static byte[] image(int width, int height, String format, boolean alpha) {
		BufferedImage image = new BufferedImage(width, height, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = image.createGraphics();
		graphics.setPaint(new GradientPaint(0, 0, Color.RED, width, height, alpha ? new Color(0, 0, 255, 0) : Color.BLUE));
		graphics.fillRect(0, 0, width, height);
		graphics.dispose();
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try {
			ImageIO.write(image, format, out);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	/** A PNG whose header declares 65535 × 65535 pixels (4.3 gigapixels) with a few bytes of data. */
	static byte[] pngBomb() {
		ByteArrayOutputStream png = new ByteArrayOutputStream();
		png.writeBytes(new byte[] { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' });
		ByteBuffer header = ByteBuffer.allocate(13).putInt(65535).putInt(65535).put((byte) 8).put((byte) 2)
			.put((byte) 0).put((byte) 0).put((byte) 0);
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

	/** A real JPEG whose frame header (SOF0) was changed to declare 65500 × 65500 pixels. */
	static byte[] jpegBomb() {
		byte[] jpeg = image(16, 16, "jpg", false);
		for (int i = 2; i + 8 < jpeg.length; i++) {
			if ((jpeg[i] & 0xFF) == 0xFF && (jpeg[i + 1] & 0xFF) == 0xC0) {
				// Marker, length (2), precision (1), then height and width (2 bytes each).
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
