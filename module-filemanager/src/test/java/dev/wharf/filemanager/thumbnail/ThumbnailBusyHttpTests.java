package dev.wharf.filemanager.thumbnail;

import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thumbnails over real HTTP when more requests come than may wait (one thread, two
 * waiting): the others get a whole 503 answer with {@code Retry-After}, and every slot is
 * given back.
 */
class ThumbnailBusyHttpTests extends FileManagerTestBase {

	@DynamicPropertySource
	static void fewSlots(DynamicPropertyRegistry registry) {
		registry.add("wharf.filemanager.thumbnails.threads", () -> "1");
		registry.add("wharf.filemanager.thumbnails.max-waiting", () -> "2");
		registry.add("wharf.filemanager.thumbnails.cache-size", () -> "0");
		registry.add("wharf.filemanager.thumbnails.persistent-cache", () -> "false");
	}

	@Test
	void requestsPastTheMostWaitingGetAWhole503AndLeaveNoSlotTaken() throws Exception {
		String cookie = alice();
		String folder = unique("busy");
		try (ThumbnailBurst burst = new ThumbnailBurst(ROOT.resolve("data"), folder, 40,
				Images.image(4000, 3000, "jpg", false))) {
			List<HttpResponse<byte[]>> answers = burst.send(this.port, cookie);
			List<HttpResponse<byte[]>> served = answers.stream().filter(answer -> answer.statusCode() == 200).toList();
			List<HttpResponse<byte[]>> refused = answers.stream().filter(answer -> answer.statusCode() != 200).toList();
			// One making it, two waiting: at least three served, and most of the 40
			// refused at once.
			assertThat(served).hasSizeGreaterThanOrEqualTo(3);
			assertThat(refused).isNotEmpty();
			for (HttpResponse<byte[]> answer : served) {
				assertThat(ImageIO.read(new ByteArrayInputStream(answer.body())).getHeight()).isEqualTo(200);
			}
			for (HttpResponse<byte[]> answer : refused) {
				assertThat(answer.statusCode()).isEqualTo(503);
				assertThat(answer.headers().firstValue("Retry-After")).hasValue("5");
				assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/json");
				assertThat(answer.headers().firstValue("ETag")).isEmpty();
				assertThat(new String(answer.body(), StandardCharsets.UTF_8))
					.isEqualTo("{\"status\":\"error\",\"message\":\"Too many thumbnails are being made, try again\"}");
			}
			assertThat(burst.uncaught()).isEmpty();
		}
		// No slot was kept by a refused request: each file is served, one after the
		// other.
		for (int i = 0; i < 4; i++) {
			Answer answer = this.api.get("/api/files/cat?thumbnail=true&path=/data/" + folder + "/photo-" + i + ".jpg")
				.browser(cookie)
				.send();
			assertThat(answer.status()).as(answer.text()).isEqualTo(200);
		}
	}

}
