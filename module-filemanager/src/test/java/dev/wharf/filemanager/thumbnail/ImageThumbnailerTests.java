package dev.wharf.filemanager.thumbnail;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for {@link ImageThumbnailer}.
 */
class ImageThumbnailerTests {

	private final ImageThumbnailer thumbnailer = new ImageThumbnailer(200, 100_000_000);

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
	void aLowerPixelBudgetRefusesBigRealImages() {
		Thumbnail outcome = new ImageThumbnailer(200, 1_000_000).make(Images.image(2000, 1000, "jpg", false));
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

	private static BufferedImage decode(Thumbnail thumbnail) throws IOException {
		assertThat(thumbnail).isInstanceOf(Thumbnail.Image.class);
		byte[] jpeg = ((Thumbnail.Image) thumbnail).jpeg();
		assertThat(jpeg).startsWith((byte) 0xFF, (byte) 0xD8);
		return ImageIO.read(new ByteArrayInputStream(jpeg));
	}

}
