package dev.wharf.loadtests.harness;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import javax.imageio.ImageIO;

/**
 * Creates the files every table serves, the same way each time, under one folder:
 * <ul>
 * <li>{@code www/}: Socko's sizes, {@code small.html} (87 bytes), {@code medium.bin} (200
 * KiB) and {@code large.bin} (1 MiB);</li>
 * <li>{@code files/}: the folder the Filestash tables list (ten entries, as in their
 * 1344-byte listing) with {@code screenshot.png}, a 1920x1080 screenshot-like PNG to make
 * thumbnails of (the original used a desktop screenshot);</li>
 * <li>{@code ftp/} and {@code cache/}: empty roots for the FTP and local build-cache
 * tables.</li>
 * </ul>
 * Run by {@code load-tests/run.sh} and by the smoke run:
 * {@code java … Fixtures <folder>}. Existing files of the right size are kept, so reruns
 * do not churn the page cache.
 */
public final class Fixtures {

	/** The Socko table's small file: exactly 87 bytes. */
	public static final String SMALL = "<html><head><title>Wharf</title></head><body><p>Hello from Wharf!!!!</p></body></html>\n";

	private Fixtures() {
	}

	/**
	 * Creates the fixtures.
	 * @param args the folder
	 * @throws IOException when a file cannot be written
	 */
	public static void main(String[] args) throws IOException {
		if (args.length != 1) {
			System.err.println("usage: Fixtures <folder>");
			System.exit(2);
		}
		create(Path.of(args[0]));
	}

	/**
	 * Creates the fixtures under a folder.
	 * @param root the folder, created if missing
	 * @throws IOException when a file cannot be written
	 */
	public static void create(Path root) throws IOException {
		Path www = Files.createDirectories(root.resolve("www"));
		write(www.resolve("small.html"), SMALL.getBytes(StandardCharsets.US_ASCII));
		write(www.resolve("medium.bin"), bytes(200 * 1024, 1));
		write(www.resolve("large.bin"), bytes(1024 * 1024, 2));
		Path files = Files.createDirectories(root.resolve("files"));
		Files.createDirectories(files.resolve("Documents"));
		Files.createDirectories(files.resolve("Music"));
		Files.createDirectories(files.resolve("Pictures"));
		write(files.resolve("notes.txt"), "Wharf benchmark folder.\n".getBytes(StandardCharsets.US_ASCII));
		write(files.resolve("report.pdf"), bytes(48 * 1024, 3));
		write(files.resolve("archive.zip"), bytes(300 * 1024, 4));
		write(files.resolve("budget.xlsx"), bytes(20 * 1024, 5));
		write(files.resolve("video.mp4"), bytes(512 * 1024, 6));
		write(files.resolve("index.html"), SMALL.getBytes(StandardCharsets.US_ASCII));
		Path screenshot = files.resolve("screenshot.png");
		if (!Files.exists(screenshot)) {
			ImageIO.write(screenshot(1920, 1080), "png", screenshot.toFile());
		}
		Files.createDirectories(root.resolve("ftp"));
		Files.createDirectories(root.resolve("cache"));
	}

	private static void write(Path file, byte[] content) throws IOException {
		if (!Files.exists(file) || Files.size(file) != content.length) {
			Files.write(file, content);
		}
	}

	private static byte[] bytes(int size, long seed) {
		byte[] bytes = new byte[size];
		new SplittableRandom(seed).nextBytes(bytes);
		return bytes;
	}

	/**
	 * A desktop-like picture: window frames, text lines and a photo-like gradient, so PNG
	 * compresses it realistically.
	 */
	static BufferedImage screenshot(int width, int height) {
		BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		try {
			g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
			g.setPaint(new java.awt.GradientPaint(0, 0, new Color(40, 60, 110), width, height, new Color(120, 40, 90)));
			g.fillRect(0, 0, width, height);
			SplittableRandom random = new SplittableRandom(7);
			g.setFont(new Font(Font.MONOSPACED, Font.PLAIN, 14));
			for (int w = 0; w < 5; w++) {
				int x = 60 + w * 170;
				int y = 50 + w * 90;
				g.setColor(new Color(245, 245, 245));
				g.fillRect(x, y, 900, 560);
				g.setColor(new Color(60, 60, 70));
				g.fillRect(x, y, 900, 28);
				g.setStroke(new BasicStroke(1));
				for (int line = 0; line < 30; line++) {
					char[] text = new char[40 + random.nextInt(60)];
					for (int i = 0; i < text.length; i++) {
						text[i] = (char) ('a' + random.nextInt(26));
						if (random.nextInt(7) == 0) {
							text[i] = ' ';
						}
					}
					g.setColor(new Color(random.nextInt(120), random.nextInt(120), random.nextInt(160)));
					g.drawString(new String(text), x + 12, y + 50 + line * 17);
				}
			}
			for (int y = 700; y < 1040; y++) {
				for (int x = 1300; x < 1880; x++) {
					int r = (x * 3 + y) & 0xff;
					int gr = (x + y * 2 + random.nextInt(16)) & 0xff;
					image.setRGB(x, y, (r << 16) | (gr << 8) | ((x ^ y) & 0xff));
				}
			}
		}
		finally {
			g.dispose();
		}
		return image;
	}

}
