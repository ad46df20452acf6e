package dev.wharf.filemanager.files;

import java.io.ByteArrayInputStream;
import java.util.zip.ZipInputStream;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A passthrough mount ({@code pass}) logs in to its backend as the user: a session keeps
 * the login (in memory) and every storage call carries it, also those made on worker
 * threads (zip, thumbnails, search). An API token carries no password, so such a mount
 * refuses it.
 */
class PassthroughTests extends FileManagerTestBase {

	@Test
	void aSessionReachesThePassthroughMountEverywhere() throws Exception {
		String cookie = alice();
		String name = unique("pass");
		assertThat(this.api.post("/api/files/save?path=/pass/" + name).browser(cookie).body("through").send().status())
			.isEqualTo(200);
		assertThat(this.api.get("/api/files/ls?path=/pass/").browser(cookie).send().names()).contains(name);
		assertThat(this.api.get("/api/files/cat?path=/pass/" + name).browser(cookie).send().text())
			.isEqualTo("through");
		assertThat(this.api.get("/api/files/search?q=" + name).browser(cookie).send().text()).contains("/pass/" + name);
		Answer zip = this.api.get("/api/files/zip?path=/pass/" + name).browser(cookie).send();
		try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip.body()))) {
			assertThat(in.getNextEntry().getName()).isEqualTo(name);
			assertThat(new String(in.readAllBytes())).isEqualTo("through");
		}
		assertThat(this.api.get("/api/files/cat?thumbnail=true&path=/pass/" + name).browser(cookie).send().status())
			.isEqualTo(415);
		assertThat(this.api.post("/api/files/cp?from=/pass/" + name + "&to=/scratch/" + name)
			.browser(cookie)
			.send()
			.status()).isEqualTo(200);
	}

	@Test
	void aTokenCarriesNoPasswordSoThePassthroughMountRefusesIt() {
		String token = this.api.token("alice", ALICE_PASSWORD);
		Answer answer = this.api.get("/api/files/ls?path=/pass/").bearer(token).send();
		assertThat(answer.status()).isEqualTo(403);
		assertThat(this.api.get("/api/files/ls?path=/scratch/").bearer(token).send().status()).isEqualTo(200);
	}

}
