package dev.wharf.filemanager.thumbnail;

import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import javax.imageio.ImageIO;

import dev.wharf.core.testsupport.Requirements;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JPEG thumbnails decoded scaled down by libjpeg-turbo ({@link TurboJpeg}), compared with
 * ImageIO's, which is what a machine without the library, or with
 * {@code native-jpeg: false}, gets. Needs the library
 * ({@code apt-get install libturbojpeg0}).
 */
class ScaledJpegTests {

	private static TurboJpeg turbo;

	private final ImageThumbnailer scaled = new ImageThumbnailer(200, 100_000_000, 16 << 20, turbo);

	private final ImageThumbnailer imageIo = new ImageThumbnailer(200, 100_000_000, 16 << 20, (TurboJpeg) null);

	@BeforeAll
	static void library() {
		Requirements.require(TurboJpeg.installed() != null, "libturbojpeg (apt-get install libturbojpeg0)");
		turbo = TurboJpeg.installed();
	}

	@Test
	void theLibraryIsUsedWhereInstalledAndNotWhenSwitchedOff() {
		assertThat(new ImageThumbnailer(200, 100_000_000, 16 << 20, true).decodesJpegScaled()).isTrue();
		assertThat(new ImageThumbnailer(200, 100_000_000, 16 << 20, false).decodesJpegScaled()).isFalse();
	}

	@Test
	void aMissingLibraryIsNoErrorAndImageIoMakesTheThumbnail() throws IOException {
		TurboJpeg missing = TurboJpeg.load("wharf-no-such-turbojpeg");
		assertThat(missing).isNull();
		ImageThumbnailer without = new ImageThumbnailer(200, 100_000_000, 16 << 20, missing);
		byte[] photo = photo(1920, 1080);
		assertThat(without.plan(photo).scaled()).isFalse();
		assertThat(decode(without.make(photo))).satisfies(image -> {
			assertThat(image.getWidth()).isEqualTo(356);
			assertThat(image.getHeight()).isEqualTo(200);
		});
	}

	@ParameterizedTest(name = "{0} x {1}: decoded at 1/{2}, thumbnail {3} x {4}")
	@CsvSource({ "1920, 1080, 4, 356, 200", "4000, 3000, 8, 267, 200", "800, 600, 2, 267, 200",
			"1600, 1200, 4, 267, 200", "300, 250, 1, 240, 200", "150, 100, 1, 150, 100", "30000, 700, 8, 800, 19" })
	void aJpegIsDecodedAtTheSmallestScaleThatCoversTheThumbnail(int width, int height, int scale, int thumbnailWidth,
			int thumbnailHeight) throws IOException {
		byte[] photo = (width > 10_000) ? Images.panorama(width, height, "jpg") : photo(width, height);
		ImageThumbnailer.Plan plan = this.scaled.plan(photo);
		assertThat(plan.scaled()).isTrue();
		assertThat(plan.subsampling()).isEqualTo(scale);
		assertThat(this.scaled.jpegScale(width, height)).isEqualTo(scale);
		// The decoded image covers the thumbnail, and the next factor's would not (or
		// there is none).
		assertThat(ceilDiv(width, scale)).isGreaterThanOrEqualTo(thumbnailWidth);
		assertThat(ceilDiv(height, scale)).isGreaterThanOrEqualTo(thumbnailHeight);
		if (scale < 8) {
			assertThat(ceilDiv(width, scale * 2) < thumbnailWidth || ceilDiv(height, scale * 2) < thumbnailHeight)
				.isTrue();
		}
		BufferedImage thumbnail = decode(this.scaled.make(photo));
		assertThat(thumbnail.getWidth()).isEqualTo(thumbnailWidth);
		assertThat(thumbnail.getHeight()).isEqualTo(thumbnailHeight);
		BufferedImage fromImageIo = decode(this.imageIo.make(photo));
		assertThat(fromImageIo.getWidth()).isEqualTo(thumbnailWidth);
		assertThat(fromImageIo.getHeight()).isEqualTo(thumbnailHeight);
	}

	@Test
	void bothDecodersShowTheSamePicture() throws IOException {
		byte[] photo = quadrants(1600, 1200, null);
		BufferedImage scaledThumbnail = decode(this.scaled.make(photo));
		BufferedImage imageIoThumbnail = decode(this.imageIo.make(photo));
		for (int[] point : new int[][] { { 30, 30 }, { 230, 30 }, { 30, 170 }, { 230, 170 }, { 133, 100 } }) {
			assertThat(
					distance(scaledThumbnail.getRGB(point[0], point[1]), imageIoThumbnail.getRGB(point[0], point[1])))
				.as("colour at %s", Arrays.toString(point))
				.isLessThan(24);
		}
		assertThat(distance(scaledThumbnail.getRGB(30, 30), Color.RED.getRGB())).isLessThan(40);
		assertThat(distance(scaledThumbnail.getRGB(230, 170), Color.BLUE.getRGB())).isLessThan(40);
	}

	@ParameterizedTest(name = "EXIF orientation {0}")
	@CsvSource({ "1, 267, 200, 30, 30", "3, 267, 200, 236, 170", "6, 200, 267, 170, 30", "8, 200, 267, 30, 236" })
	void theExifOrientationTurnsTheThumbnail(int orientation, int width, int height, int redX, int redY)
			throws IOException {
		// Red is the image's top left quadrant; the orientation says where it must be
		// shown.
		byte[] photo = quadrants(1600, 1200, orientation);
		for (ImageThumbnailer thumbnailer : new ImageThumbnailer[] { this.scaled, this.imageIo }) {
			BufferedImage thumbnail = decode(thumbnailer.make(photo));
			assertThat(thumbnail.getWidth()).isEqualTo(width);
			assertThat(thumbnail.getHeight()).isEqualTo(height);
			assertThat(distance(thumbnail.getRGB(redX, redY), Color.RED.getRGB())).as("red at %d, %d", redX, redY)
				.isLessThan(40);
		}
	}

	@Test
	void aTruncatedJpegGetsAThumbnailOfWhatArrivedAsWithImageIo() throws IOException {
		byte[] photo = quadrants(1600, 1200, null);
		byte[] half = Arrays.copyOf(photo, photo.length / 2);
		BufferedImage thumbnail = decode(this.scaled.make(half));
		assertThat(thumbnail.getWidth()).isEqualTo(267);
		// The top rows arrived: red on the left.
		assertThat(distance(thumbnail.getRGB(30, 20), Color.RED.getRGB())).isLessThan(40);
		assertThat(decode(this.imageIo.make(half)).getWidth()).isEqualTo(267);
	}

	@Test
	void aJpegOverTheBudgetForTheLibraryGoesToImageIo() throws IOException {
		// 2.3 MB of file: the library's copy of it and its strip do not fit 2 MB,
		// ImageIO's subsampled reading does.
		byte[] photo = photo(4000, 3000);
		ImageThumbnailer small = new ImageThumbnailer(200, 100_000_000, 2 << 20, turbo);
		ImageThumbnailer.Plan plan = small.plan(photo);
		assertThat(plan.scaled()).isFalse();
		assertThat(decode(small.make(photo)).getWidth()).isEqualTo(267);
		assertThat(this.scaled.plan(photo).bytes()).isLessThanOrEqualTo(16 << 20).isGreaterThan(photo.length);
	}

	@Test
	void theLibraryEncodesWhatItDecodes() {
		int[] pixels = new int[40 * 30];
		Arrays.fill(pixels, 0x00FF8000);
		byte[] jpeg = turbo.encode(pixels, 40, 30, 80);
		assertThat(jpeg).isNotNull().startsWith((byte) 0xFF, (byte) 0xD8);
		int[] decoded = turbo.decode(jpeg, 20, 15, buffer -> {
			int[] copy = new int[buffer.remaining()];
			buffer.get(copy);
			return copy;
		});
		assertThat(decoded).hasSize(20 * 15);
		assertThat(distance(decoded[7 * 20 + 10], 0xFF8000)).isLessThan(12);
		Object nothing = turbo.decode("not a jpeg".getBytes(), 10, 10, buffer -> buffer);
		assertThat(nothing).isNull();
	}

	@Test
	void workspacesAreKeptForTheNextCallAndNoPixelOfAnEarlierImageShowsInAnother() {
		int[] white = new int[64 * 64];
		Arrays.fill(white, 0x00FFFFFF);
		byte[] whiteJpeg = turbo.encode(white, 64, 64, 90);
		byte[] blackJpeg = turbo.encode(new int[16 * 16], 16, 16, 90);
		for (int i = 0; i < 3; i++) {
			Integer last = turbo.decode(whiteJpeg, 64, 64, buffer -> buffer.get(64 * 64 - 1));
			assertThat(last).isNotNull();
		}
		assertThat(turbo.idleWorkspaces()).isBetween(1, Runtime.getRuntime().availableProcessors());
		// Asked for more than the image has, the library fills its 16 x 16 at the start
		// of each row: the rest of the
		// workspace's buffer, which held the white image, must be blank, not white.
		int[] decoded = turbo.decode(blackJpeg, 64, 64, buffer -> {
			int[] copy = new int[64 * 64];
			buffer.get(copy);
			return copy;
		});
		assertThat(decoded).isNotNull();
		assertThat(Arrays.stream(decoded).map(pixel -> distance(pixel, 0)).max().getAsInt()).isLessThan(16);
		// A failure frees its handle; the next call decodes as before.
		Object failed = turbo.decode("not a jpeg".getBytes(), 10, 10, buffer -> buffer);
		assertThat(failed).isNull();
		Integer middle = turbo.decode(whiteJpeg, 32, 32, buffer -> buffer.get(32 * 16 + 16) & 0xFFFFFF);
		assertThat(middle).isGreaterThan(0xF0F0F0);
		assertThat(turbo.idleWorkspaces()).isBetween(1, Runtime.getRuntime().availableProcessors());
	}

	/**
	 * A photo-like JPEG (gradients, shapes and grain): its entropy-coded data is as large
	 * as a camera's.
	 */
	static byte[] photo(int width, int height) {
		BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = image.createGraphics();
		graphics.setPaint(new GradientPaint(0, 0, new Color(70, 120, 200), 0, height * 0.6f, new Color(230, 210, 180)));
		graphics.fillRect(0, 0, width, height);
		Random random = new Random(1);
		for (int i = 0; i < 100; i++) {
			graphics.setColor(new Color(random.nextInt(256), random.nextInt(256), random.nextInt(256), 120));
			int size = width / 40 + random.nextInt(width / 8);
			graphics.fillOval(random.nextInt(width), random.nextInt(height), size, size);
		}
		graphics.dispose();
		int[] pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
		for (int i = 0; i < pixels.length; i++) {
			int grain = (int) (random.nextGaussian() * 6);
			pixels[i] = (clamp(((pixels[i] >> 16) & 0xFF) + grain) << 16)
					| (clamp(((pixels[i] >> 8) & 0xFF) + grain) << 8) | clamp((pixels[i] & 0xFF) + grain);
		}
		return Images.encode(image, "jpg");
	}

	/**
	 * A JPEG in four quadrants, red, green, yellow and blue (top left to bottom right),
	 * with an EXIF orientation if one is given.
	 */
	static byte[] quadrants(int width, int height, @Nullable Integer orientation) {
		BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = image.createGraphics();
		Color[] colors = { Color.RED, Color.GREEN, Color.YELLOW, Color.BLUE };
		for (int i = 0; i < 4; i++) {
			graphics.setColor(colors[i]);
			graphics.fillRect((i % 2) * width / 2, (i / 2) * height / 2, width / 2, height / 2);
		}
		graphics.dispose();
		byte[] jpeg = Images.encode(image, "jpg");
		return (orientation != null) ? Images.withExifOrientation(jpeg, orientation) : jpeg;
	}

	private static int clamp(int value) {
		return Math.max(0, Math.min(255, value));
	}

	private static int distance(int rgb, int other) {
		int distance = 0;
		for (int shift = 0; shift <= 16; shift += 8) {
			distance = Math.max(distance, Math.abs(((rgb >> shift) & 0xFF) - ((other >> shift) & 0xFF)));
		}
		return distance;
	}

	private static int ceilDiv(int a, int b) {
		return (a + b - 1) / b;
	}

	private static BufferedImage decode(Thumbnail thumbnail) throws IOException {
		assertThat(thumbnail).isInstanceOf(Thumbnail.Image.class);
		BufferedImage image = ImageIO.read(new ByteArrayInputStream(((Thumbnail.Image) thumbnail).jpeg()));
		assertThat(image).isNotNull();
		return image;
	}

}
