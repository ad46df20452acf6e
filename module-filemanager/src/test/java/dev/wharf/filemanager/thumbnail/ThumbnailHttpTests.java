package dev.wharf.filemanager.thumbnail;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;

import javax.imageio.ImageIO;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/files/cat?thumbnail=true}, over real HTTP.
 */
class ThumbnailHttpTests extends FileManagerTestBase {

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	private String save(byte[] content, String extension) {
		String path = "/data/" + unique("image") + "." + extension;
		assertThat(this.api.post("/api/files/save?path=" + path).browser(this.cookie).body(content).send().status()).isEqualTo(200);
		return path;
	}

	@Test
	void aPhotoGetsASmallJpegThatCanBeRevalidated() throws Exception {
		String path = save(Images.image(1600, 1200, "jpg", false), "jpg");
		// As an <img> requests it: the cookie alone.
		Answer answer = this.api.get("/api/files/cat?thumbnail=true&path=" + path).header("Cookie", this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.header("Content-Type")).isEqualTo("image/jpeg");
		BufferedImage thumbnail = ImageIO.read(new ByteArrayInputStream(answer.body()));
		assertThat(thumbnail.getHeight()).isEqualTo(200);
		assertThat(thumbnail.getWidth()).isBetween(266, 267);
		assertThat(this.api.get("/api/files/cat?thumbnail=true&path=" + path).header("Cookie", this.cookie)
			.header("If-None-Match", answer.header("ETag")).send().status()).isEqualTo(304);
		assertThat(answer.header("ETag")).isNotEqualTo(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send()
			.header("ETag"));
	}

	@Test
	void anImageBombIsRefusedQuickly() {
		Answer png = this.api.get("/api/files/cat?thumbnail=true&path=" + save(Images.pngBomb(), "png")).browser(this.cookie).send();
		assertThat(png.status()).isEqualTo(422);
		assertThat(png.message()).contains("too large");
		Answer jpeg = this.api.get("/api/files/cat?thumbnail=true&path=" + save(Images.jpegBomb(), "jpg")).browser(this.cookie).send();
		assertThat(jpeg.status()).isEqualTo(422);
		assertThat(jpeg.header("Content-Type")).isEqualTo("application/json");
		// One row of 66 million pixels: within the pixel budget, but its rows alone need more than the decoding
		// budget (16 MB on the test server).
		Answer thin = this.api.get("/api/files/cat?thumbnail=true&path=" + save(Images.thinPng(66_000_000), "png"))
			.browser(this.cookie)
			.send();
		assertThat(thin.status()).isEqualTo(422);
		assertThat(thin.message())
			.isEqualTo("Image too large to preview: 66000000 x 1 pixels need 756 MB to decode (at most 16 MB)");
	}

	@Test
	void aPanoramaGetsAThumbnailOfTheBoxsLongSide() throws Exception {
		String path = save(Images.panorama(30_000, 700, "jpg"), "jpg");
		Answer answer = this.api.get("/api/files/cat?thumbnail=true&path=" + path).header("Cookie", this.cookie).send();
		assertThat(answer.status()).as(answer.text()).isEqualTo(200);
		BufferedImage thumbnail = ImageIO.read(new ByteArrayInputStream(answer.body()));
		assertThat(thumbnail.getWidth()).isEqualTo(800);
		assertThat(thumbnail.getHeight()).isEqualTo(19);
	}

	@Test
	void aFileThatIsNotAnImageGetsA415() {
		Answer answer = this.api.get("/api/files/cat?thumbnail=true&path=" + save("plain text".getBytes(), "txt"))
			.browser(this.cookie).send();
		assertThat(answer.status()).isEqualTo(415);
		assertThat(answer.message()).isEqualTo("Not an image that can be previewed");
		assertThat(this.api.get("/api/files/cat?thumbnail=true&path=/data/").browser(this.cookie).send().status()).isEqualTo(409);
	}

}
