package dev.wharf.filemanager.upload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.session.FileApiTokenStore;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.filemanager.testsupport.Api;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What must survive a restart: a resumable upload (its state is in the mount), an API
 * token (its digest is in the state folder) and a share link with its password and
 * download count (in the state folder). The server is started, stopped and started again
 * on the same folders.
 */
class ResumeAfterRestartTests {

	private static final String PASSWORD = "erin-password";

	@TempDir
	Path temp;

	private ConfigurableApplicationContext start(String hash) {
		return new SpringApplicationBuilder(FileManagerTestApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "server.address=127.0.0.1", "wharf.state-dir=" + this.temp.resolve("state"),
					"wharf.storage.mounts.data.type=local",
					"wharf.storage.mounts.data.root=" + this.temp.resolve("data"), "wharf.security.users[0].name=erin",
					"wharf.security.users[0].password=" + hash, "wharf.security.users[0].roles=user",
					"wharf.security.users[0].mounts.data=rw")
			.run();
	}

	private static Api api(ConfigurableApplicationContext context) {
		return new Api(Integer.parseInt(context.getEnvironment().getProperty("local.server.port")));
	}

	@Test
	void anUploadAndATokenSurviveARestart() throws Exception {
		Files.createDirectories(this.temp.resolve("data"));
		String hash = PasswordHashing.hash(PASSWORD);
		byte[] file = StorageTestSupport.randomBytes(21, 0, 300_000);
		String token;
		String location;
		try (ConfigurableApplicationContext first = start(hash)) {
			Api api = api(first);
			token = api.token("erin", PASSWORD);
			Answer created = api.post("/api/files/upload?path=/data/big.bin")
				.bearer(token)
				.header("Tus-Resumable", "1.0.0")
				.header("Upload-Length", Integer.toString(file.length))
				.send();
			assertThat(created.status()).isEqualTo(201);
			location = created.header("Location");
			Answer half = api.tusPatch(location, 0).bearer(token).body(Arrays.copyOf(file, 120_000)).send();
			assertThat(half.status()).isEqualTo(204);
		}
		assertThat(Files.readString(this.temp.resolve("state").resolve(FileApiTokenStore.FILE_NAME))).contains("erin")
			.doesNotContain(token)
			.doesNotContain(token.substring("wharf_".length()));
		try (ConfigurableApplicationContext second = start(hash)) {
			Api api = api(second);
			Answer head = api.request("HEAD", location).bearer(token).header("Tus-Resumable", "1.0.0").send();
			assertThat(head.status()).isEqualTo(200);
			assertThat(head.header("Upload-Offset")).isEqualTo("120000");
			assertThat(api.get("/api/files/cat?path=/data/big.bin").bearer(token).send().status()).isEqualTo(404);
			Answer rest = api.tusPatch(location, 120000)
				.bearer(token)
				.body(Arrays.copyOfRange(file, 120_000, file.length))
				.send();
			assertThat(rest.status()).isEqualTo(204);
			assertThat(api.get("/api/files/cat?path=/data/big.bin").bearer(token).send().body()).isEqualTo(file);
		}
	}

	@Test
	void aShareLinkWithItsPasswordAndDownloadsSurvivesARestart() throws Exception {
		Files.createDirectories(this.temp.resolve("data").resolve("shared"));
		Files.writeString(this.temp.resolve("data").resolve("shared").resolve("a.txt"), "shared content");
		String hash = PasswordHashing.hash(PASSWORD);
		String id;
		try (ConfigurableApplicationContext first = start(hash)) {
			Api api = api(first);
			String token = api.token("erin", PASSWORD);
			Answer made = api.post("/api/share")
				.bearer(token)
				.json("{\"path\":\"/data/shared\",\"can_read\":true,\"password\":\"p\",\"max_downloads\":2}")
				.send();
			assertThat(made.status()).as(made.text()).isEqualTo(200);
			id = made.json().path("result").path("id").stringValue();
			String proof = Api.cookie(api.post("/api/share/" + id + "/proof")
				.header(Api.XRW, "XmlHttpRequest")
				.json("{\"type\":\"password\",\"value\":\"p\"}")
				.send());
			assertThat(api.get("/api/files/cat?path=/a.txt&share=" + id).header("Cookie", proof).send().text())
				.isEqualTo("shared content");
		}
		try (ConfigurableApplicationContext second = start(hash)) {
			Api api = api(second);
			assertThat(api.get("/api/files/cat?path=/a.txt&share=" + id).send().status()).as("the password")
				.isEqualTo(401);
			String proof = Api.cookie(api.post("/api/share/" + id + "/proof")
				.header(Api.XRW, "XmlHttpRequest")
				.json("{\"type\":\"password\",\"value\":\"p\"}")
				.send());
			assertThat(api.get("/api/files/cat?path=/a.txt&share=" + id).header("Cookie", proof).send().status())
				.isEqualTo(200);
			assertThat(api.get("/api/files/cat?path=/a.txt&share=" + id).header("Cookie", proof).send().status())
				.as("the second of two downloads was the last")
				.isEqualTo(410);
		}
	}

}
