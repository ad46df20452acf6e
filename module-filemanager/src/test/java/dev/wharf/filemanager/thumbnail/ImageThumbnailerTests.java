package dev.wharf.filemanager.thumbnail;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import javax.imageio.ImageIO;

import com.sun.management.ThreadMXBean;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for {@link ImageThumbnailer}.
 */
class ImageThumbnailerTests {

	/**
	 * What p128 gives one thumbnail: a quarter of its 40 MB heap, shared by its two
	 * threads.
	 */
	static final long P128_BUDGET = 5 << 20;

	private final ImageThumbnailer thumbnailer = new ImageThumbnailer(200, 100_000_000, 16 << 20, true);

	@Test
	void makesAJpegWhoseShortSideIs200() throws IOException {
		BufferedImage thumbnail = decode(this.thumbnailer.make(Images.image(2000, 1000, "jpg", false)));
		assertThat(thumbnail.getHeight()).isEqualTo(200);
		assertThat(thumbnail.getWidth()).isEqualTo(400);
	}

	@Test
	void keepsPanoramasSmallAndSmallImagesAsTheyAre() throws IOException {
		BufferedImage panorama = decode(this.thumbnailer.make(Images.image(3000, 300, "png", false)));
		assertThat(panorama.getWidth()).isLessThanOrEqualTo(800);
		BufferedImage icon = decode(this.thumbnailer.make(Images.image(64, 48, "png", false)));
		assertThat(icon.getWidth()).isEqualTo(64);
		assertThat(icon.getHeight()).isEqualTo(48);
	}

	@Test
	void transparentPngsBecomeJpegsOnWhite() throws IOException {
		BufferedImage thumbnail = decode(this.thumbnailer.make(Images.image(400, 400, "png", true)));
		int corner = thumbnail.getRGB(thumbnail.getWidth() - 1, thumbnail.getHeight() - 1) & 0xFFFFFF;
		assertThat(corner >> 16).as("red of a transparent corner").isGreaterThan(200);
		assertThat((corner >> 8) & 0xFF).as("green of a transparent corner").isGreaterThan(200);
	}

	@Test
	void imageBombsAreRefusedFromTheirHeaderAtOnce() {
		for (byte[] bomb : new byte[][] { Images.pngBomb(), Images.jpegBomb() }) {
			Thumbnail outcome = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> this.thumbnailer.make(bomb));
			assertThat(outcome).isInstanceOfSatisfying(Thumbnail.Refused.class, refused -> {
				assertThat(refused.status()).isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT);
				assertThat(refused.message()).contains("too large").containsPattern("655(35|00) x 655(35|00)");
			});
		}
	}

	@Test
	void aPanoramaIsDecodedSubsampledByItsLongSideWithinTheSmallProfilesBudget() throws IOException {
		// The budget a thumbnail thread gets under p128 (a quarter of a 40 MB heap,
		// shared by two threads).
		ImageThumbnailer small = new ImageThumbnailer(200, 100_000_000, P128_BUDGET, true);
		for (String format : new String[] { "jpg", "png" }) {
			byte[] panorama = Images.panorama(30_000, 700, format);
			ImageThumbnailer.Plan plan = small.plan(panorama);
			if (plan.scaled()) {
				// libjpeg-turbo's coarsest scale, 1/8: 3750 x 88 pixels, not 30000 x 700.
				assertThat(plan.subsampling()).as(format).isEqualTo(8);
			}
			else {
				// Twice the thumbnail's width (800) at most: about 1700 x 40 pixels, not
				// 30000 x 700.
				assertThat(ceilDiv(30_000, plan.subsampling())).as(format).isBetween(800, 1600);
				assertThat(ceilDiv(700, plan.subsampling())).as(format).isLessThanOrEqualTo(40);
			}
			assertThat(plan.bytes()).as(format).isLessThanOrEqualTo(P128_BUDGET);
			BufferedImage thumbnail = decode(small.make(panorama));
			assertThat(thumbnail.getWidth()).as(format).isEqualTo(800);
			assertThat(thumbnail.getHeight()).as(format).isEqualTo(19);
		}
	}

	@Test
	void aThinPngBombIsRefusedFromItsHeaderWithBoundedMemory() throws IOException {
		byte[] bomb = Images.thinPng(66_000_000);
		assertThat(bomb.length).isLessThan(300 * 1024);
		ImageThumbnailer small = new ImageThumbnailer(200, 100_000_000, P128_BUDGET, true);
		warmUp(small);
		// Three rows of 66 million RGBA pixels (the PNG reader's, whatever the
		// subsampling); 800 x 1 pixels decoded
		// (4 bytes) and copied to be resized (4 bytes); the thumbnail and its opaque copy
		// (4 bytes each).
		assertThat(small.plan(bomb).bytes()).isEqualTo(3 * 264_000_000L + 800 * (4 + 4) + 2 * 800 * 4);
		ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
		long before = threads.getCurrentThreadAllocatedBytes();
		Thumbnail outcome = small.make(bomb);
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		assertThat(outcome).isInstanceOfSatisfying(Thumbnail.Refused.class, refused -> {
			assertThat(refused.status()).isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT);
			assertThat(refused.message())
				.isEqualTo("Image too large to preview: 66000000 x 1 pixels need 756 MB to decode (at most 5 MB)");
		});
		// Refused from the header: nothing near a row of the image was allocated.
		assertThat(allocated).isLessThan(2L << 20);
	}

	@Test
	void compressedPngTextIsNeverInflated() {
		byte[] png = Images.pngWithInflatingText();
		assertThat(png.length).isLessThan(300 * 1024);
		ImageThumbnailer small = new ImageThumbnailer(200, 100_000_000, P128_BUDGET, true);
		warmUp(small);
		ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
		long before = threads.getCurrentThreadAllocatedBytes();
		Thumbnail outcome = small.make(png);
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		assertThat(outcome).isInstanceOf(Thumbnail.Image.class);
		// The text's 264 MB would be inflated into memory if the reader read the
		// metadata.
		assertThat(allocated).isLessThan(2L << 20);
	}

	@Test
	void aLowerPixelBudgetRefusesBigRealImages() {
		Thumbnail outcome = new ImageThumbnailer(200, 1_000_000, 16 << 20, true)
			.make(Images.image(2000, 1000, "jpg", false));
		assertThat(outcome).isInstanceOf(Thumbnail.Refused.class);
	}

	@Test
	void nonImagesAndBrokenImagesAreRefused() {
		Thumbnail text = this.thumbnailer.make("just text".getBytes(StandardCharsets.UTF_8));
		assertThat(text).isInstanceOfSatisfying(Thumbnail.Refused.class,
				refused -> assertThat(refused.status()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE));
		byte[] jpeg = Images.image(800, 600, "jpg", false);
		byte[] truncated = java.util.Arrays.copyOf(jpeg, 40);
		assertThat(this.thumbnailer.make(truncated)).isInstanceOf(Thumbnail.Refused.class);
	}

	/**
	 * Loads and initialises ImageIO's readers and writers, whose first use allocates by
	 * itself.
	 */
	private static void warmUp(ImageThumbnailer thumbnailer) {
		assertThat(thumbnailer.make(Images.image(16, 16, "png", false))).isInstanceOf(Thumbnail.Image.class);
	}

	private static int ceilDiv(int a, int b) {
		return (a + b - 1) / b;
	}

	private static BufferedImage decode(Thumbnail thumbnail) throws IOException {
		assertThat(thumbnail).isInstanceOf(Thumbnail.Image.class);
		byte[] jpeg = ((Thumbnail.Image) thumbnail).jpeg();
		assertThat(jpeg).startsWith((byte) 0xFF, (byte) 0xD8);
		return ImageIO.read(new ByteArrayInputStream(jpeg));
	}

}
