package dev.wharf.filemanager.thumbnail;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import javax.imageio.ImageIO;

import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET /api/files/cat?thumbnail=true}, over real HTTP; thumbnails kept in the local
 * mount's reserved folder, made in the background after an upload (a save or a resumable
 * upload), and made in turn for a burst of requests.
 */
class ThumbnailHttpTests extends FileManagerTestBase {

	private static final Path DATA = ROOT.resolve("data");

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	private String save(byte[] content, String extension) {
		String path = "/data/" + unique("image") + "." + extension;
		assertThat(this.api.post("/api/files/save?path=" + path).browser(this.cookie).body(content).send().status())
			.isEqualTo(200);
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
		assertThat(this.api.get("/api/files/cat?thumbnail=true&path=" + path)
			.header("Cookie", this.cookie)
			.header("If-None-Match", answer.header("ETag"))
			.send()
			.status()).isEqualTo(304);
		assertThat(answer.header("ETag"))
			.isNotEqualTo(this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().header("ETag"));
	}

	@Test
	void anImageBombIsRefusedQuickly() {
		Answer png = this.api.get("/api/files/cat?thumbnail=true&path=" + save(Images.pngBomb(), "png"))
			.browser(this.cookie)
			.send();
		assertThat(png.status()).isEqualTo(422);
		assertThat(png.message()).contains("too large");
		Answer jpeg = this.api.get("/api/files/cat?thumbnail=true&path=" + save(Images.jpegBomb(), "jpg"))
			.browser(this.cookie)
			.send();
		assertThat(jpeg.status()).isEqualTo(422);
		assertThat(jpeg.header("Content-Type")).isEqualTo("application/json");
		// One row of 66 million pixels: within the pixel budget, but its rows alone need
		// more than the decoding
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
	void anUploadedImageHasItsThumbnailKeptBeforeItIsFirstViewed() throws Exception {
		// Saved in one request.
		byte[] photo = Images.image(1600, 1200, "jpg", false);
		String saved = save(photo, "jpg");
		Path kept = awaitKeptThumbnail(saved);
		Answer answer = this.api.get("/api/files/cat?thumbnail=true&path=" + saved)
			.header("Cookie", this.cookie)
			.send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.body()).isEqualTo(Files.readAllBytes(kept));
		// A resumable upload (tus), in two pieces.
		String uploaded = "/data/" + unique("resumable") + ".png";
		byte[] png = Images.image(900, 600, "png", false);
		Answer created = this.api.post("/api/files/upload?path=" + uploaded)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", Integer.toString(png.length))
			.send();
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		int half = png.length / 2;
		for (int[] piece : new int[][] { { 0, half }, { half, png.length } }) {
			Answer patched = this.api.tusPatch(created.header("Location"), piece[0])
				.browser(this.cookie)
				.body(Arrays.copyOfRange(png, piece[0], piece[1]))
				.send();
			assertThat(patched.status()).as(patched.text()).isEqualTo(204);
		}
		BufferedImage thumbnail = ImageIO.read(awaitKeptThumbnail(uploaded).toFile());
		assertThat(thumbnail.getWidth()).isEqualTo(300);
		assertThat(thumbnail.getHeight()).isEqualTo(200);
	}

	@Test
	void keptThumbnailsCannotBeListedOrRead() {
		String saved = save(Images.image(800, 600, "jpg", false), "jpg");
		Path kept = awaitKeptThumbnail(saved);
		String folder = saved.substring(0, saved.lastIndexOf('/') + 1);
		Answer listing = this.api.get("/api/files/ls?path=" + folder).browser(this.cookie).send();
		assertThat(listing.status()).isEqualTo(200);
		assertThat(listing.text()).contains(saved.substring(folder.length())).doesNotContain(".wharf");
		String reserved = "/data/" + DATA.relativize(kept).toString();
		for (String target : new String[] { "/api/files/cat?path=" + reserved,
				"/api/files/ls?path=/data/.wharf/thumbnails/" }) {
			Answer refused = this.api.get(target).browser(this.cookie).send();
			assertThat(refused.status()).as(target).isEqualTo(400);
			assertThat(refused.message()).contains("reserved");
		}
	}

	/** The kept thumbnail of a file in the data mount, once it is there. */
	private static Path awaitKeptThumbnail(String path) {
		Path file = DATA.resolve(path.substring("/data/".length()));
		Path[] found = new Path[1];
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
			FileEntry entry = new FileEntry(StoragePath.parse(path.substring("/data".length())), EntryType.FILE,
					attributes.size(), attributes.lastModifiedTime().toInstant());
			StoragePath location = new ThumbnailStore(200, List.of(), Duration.ofDays(1), Duration.ofDays(1),
					Clock.systemUTC())
				.location(entry);
			found[0] = DATA.resolve(location.toString().substring(1));
			assertThat(found[0]).isRegularFile();
		});
		return found[0];
	}

	@Test
	void aBurstOfRequestsFarBeyondTheThreadsIsServedInTurn() throws Exception {
		// Several times the threads and what a pool's queue of tasks could hold: every
		// request waits for its turn, none is refused, nothing is thrown on a thread.
		try (ThumbnailBurst burst = new ThumbnailBurst(DATA, unique("burst"), 200,
				Images.image(4000, 3000, "jpg", false))) {
			List<HttpResponse<byte[]>> answers = burst.send(this.port, this.cookie);
			assertThat(answers).allSatisfy(answer -> {
				assertThat(answer.statusCode()).as(new String(answer.body())).isEqualTo(200);
				assertThat(ImageIO.read(new ByteArrayInputStream(answer.body())).getHeight()).isEqualTo(200);
			});
			assertThat(burst.uncaught()).isEmpty();
		}
	}

	@Test
	void aFileThatIsNotAnImageGetsA415() {
		Answer answer = this.api.get("/api/files/cat?thumbnail=true&path=" + save("plain text".getBytes(), "txt"))
			.browser(this.cookie)
			.send();
		assertThat(answer.status()).isEqualTo(415);
		assertThat(answer.message()).isEqualTo("Not an image that can be previewed");
		assertThat(this.api.get("/api/files/cat?thumbnail=true&path=/data/").browser(this.cookie).send().status())
			.isEqualTo(409);
	}

}
