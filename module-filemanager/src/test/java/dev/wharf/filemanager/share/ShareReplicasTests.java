package dev.wharf.filemanager.share;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.testsupport.RedisProcess;
import dev.wharf.filemanager.testsupport.Api;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Share links on two replicas over one folder and one real {@code redis-server}
 * ({@code wharf.state.store: redis}), each with a state folder of its own: a link made
 * through one works through the other, its downloads are counted once for both, and a
 * revocation through either ends it on both at the next request.
 */
class ShareReplicasTests {

	private static final String PASSWORD = "frank-password";

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	@TempDir
	Path temp;

	private ConfigurableApplicationContext replica(String name, String hash) {
		return new SpringApplicationBuilder(FileManagerTestApplication.class).web(WebApplicationType.REACTIVE)
			.properties("server.port=0", "server.address=127.0.0.1", "wharf.state-dir=" + this.temp.resolve(name),
					"wharf.state.store=redis", "spring.data.redis.url=" + redis.server().url(),
					"wharf.storage.mounts.data.type=local",
					"wharf.storage.mounts.data.root=" + this.temp.resolve("data"), "wharf.security.users[0].name=frank",
					"wharf.security.users[0].password=" + hash, "wharf.security.users[0].roles=user",
					"wharf.security.users[0].mounts.data=rw")
			.run();
	}

	private static Api api(ConfigurableApplicationContext context) {
		return new Api(Integer.parseInt(context.getEnvironment().getProperty("local.server.port")));
	}

	@Test
	void aLinkMadeOnOneReplicaIsCountedAndRevokedOnBoth() throws Exception {
		redis.server().flushAll();
		Files.createDirectories(this.temp.resolve("data").resolve("shared"));
		Files.writeString(this.temp.resolve("data").resolve("shared").resolve("a.txt"), "on both");
		String hash = PasswordHashing.hash(PASSWORD);
		try (ConfigurableApplicationContext one = replica("one", hash);
				ConfigurableApplicationContext two = replica("two", hash)) {
			Api first = api(one);
			Api second = api(two);
			String cookie = first.login("frank", PASSWORD);
			Answer made = first.post("/api/share")
				.browser(cookie)
				.json("{\"path\":\"/data/shared\",\"can_read\":true,\"max_downloads\":3}")
				.send();
			assertThat(made.status()).as(made.text()).isEqualTo(200);
			String id = made.json().path("result").path("id").stringValue();
			assertThat(second.get("/api/files/cat?path=/a.txt&share=" + id).send().text()).isEqualTo("on both");
			assertThat(first.get("/api/files/cat?path=/a.txt&share=" + id).send().status()).isEqualTo(200);
			assertThat(second.get("/api/files/cat?path=/a.txt&share=" + id).send().status()).isEqualTo(200);
			assertThat(first.get("/api/files/cat?path=/a.txt&share=" + id).send().status()).as("the fourth of three")
				.isEqualTo(410);
			assertThat(this.temp.resolve("one").resolve("shares")).doesNotExist();

			Answer again = first.post("/api/share")
				.browser(cookie)
				.json("{\"path\":\"/data/shared\",\"can_read\":true}")
				.send();
			String other = again.json().path("result").path("id").stringValue();
			assertThat(first.get("/api/files/ls?path=/&share=" + other).send().status()).isEqualTo(200);
			assertThat(second.request("DELETE", "/api/share/" + other)
				.browser(second.login("frank", PASSWORD))
				.send()
				.status()).isEqualTo(200);
			assertThat(first.get("/api/files/ls?path=/&share=" + other).send().status()).isEqualTo(404);
		}
	}

}
