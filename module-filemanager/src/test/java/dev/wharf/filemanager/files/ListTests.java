package dev.wharf.filemanager.files;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/files/ls}, over real HTTP.
 */
class ListTests extends FileManagerTestBase {

	@Test
	void theFilestashBenchmarkRequestListsTheMountsAsFolders() {
		String cookie = alice();
		// Exactly as Filestash's benchmark sends it: encoded path, cookie,
		// X-Requested-With.
		Answer answer = this.api.get("/api/files/ls?path=%2F")
			.header("Cookie", cookie)
			.header("X-Requested-With", "XmlHttpRequest")
			.send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.header("Content-Type")).isEqualTo("application/json");
		assertThat(answer.json().path("status").stringValue()).isEqualTo("ok");
		assertThat(answer.names()).containsExactly("data", "faulty", "pass", "ro", "scratch");
		assertThat(answer.json().path("results").get(0).path("type").stringValue()).isEqualTo("directory");
		assertThat(answer.json().path("permissions").path("can_create_file").booleanValue()).isFalse();
	}

	@Test
	void aUserSeesOnlyTheMountsTheyHaveRightsOn() {
		String bob = this.api.login("bob", BOB_PASSWORD);
		assertThat(this.api.get("/api/files/ls?path=/").browser(bob).send().names()).containsExactly("data");
		Answer hidden = this.api.get("/api/files/ls?path=/scratch/").browser(bob).send();
		assertThat(hidden.status()).isEqualTo(404);
		assertThat(hidden.json().path("status").stringValue()).isEqualTo("error");
	}

	@Test
	void listsAFolderSortedWithSizesTimesAndTypesOnly() throws Exception {
		String cookie = alice();
		String folder = unique("list");
		this.api.post("/api/files/mkdir?path=/scratch/" + folder).browser(cookie).send();
		this.api.post("/api/files/save?path=/scratch/" + folder + "/b.txt").browser(cookie).body("hello").send();
		this.api.post("/api/files/mkdir?path=/scratch/" + folder + "/a-folder").browser(cookie).send();
		long before = System.currentTimeMillis() - 60_000;
		Answer answer = this.api.get("/api/files/ls?path=/scratch/" + folder).browser(cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.names()).containsExactly("a-folder", "b.txt");
		JsonNode file = answer.json().path("results").get(1);
		assertThat(file.path("type").stringValue()).isEqualTo("file");
		assertThat(file.path("size").longValue()).isEqualTo(5);
		assertThat(file.path("time").longValue()).isGreaterThan(before);
		// Nothing else is reported about an entry (Filestash leaks inode, uid, gid as
		// "metadata").
		assertThat(file.propertyNames()).containsExactlyInAnyOrder("name", "type", "size", "time");
		assertThat(answer.json().path("permissions").path("can_delete").booleanValue()).isTrue();
	}

	@Test
	void aReadOnlyMountSaysSoInItsPermissions() {
		Answer answer = this.api.get("/api/files/ls?path=/ro/").browser(alice()).send();
		assertThat(answer.status()).isEqualTo(200);
		JsonNode permissions = answer.json().path("permissions");
		assertThat(permissions.path("can_read").booleanValue()).isTrue();
		assertThat(permissions.path("can_upload").booleanValue()).isFalse();
	}

	@Test
	void anEntityTagAnswers304WhenNothingChanged() {
		String cookie = alice();
		String folder = unique("etag");
		this.api.post("/api/files/mkdir?path=/scratch/" + folder).browser(cookie).send();
		Answer first = this.api.get("/api/files/ls?path=/scratch/" + folder).browser(cookie).send();
		String etag = first.header("ETag");
		assertThat(etag).startsWith("\"");
		Answer again = this.api.get("/api/files/ls?path=/scratch/" + folder)
			.browser(cookie)
			.header("If-None-Match", etag)
			.send();
		assertThat(again.status()).isEqualTo(304);
		assertThat(again.body()).isEmpty();
		this.api.post("/api/files/touch?path=/scratch/" + folder + "/new").browser(cookie).send();
		Answer changed = this.api.get("/api/files/ls?path=/scratch/" + folder)
			.browser(cookie)
			.header("If-None-Match", etag)
			.send();
		assertThat(changed.status()).isEqualTo(200);
		assertThat(changed.header("ETag")).isNotEqualTo(etag);
	}

	@Test
	void linksOutOfTheMountAndSpecialFilesAreNotListedAsFolders() throws Exception {
		writeCanary();
		String folder = unique("links");
		Path local = ROOT.resolve("data").resolve(folder);
		Files.createDirectories(local);
		Files.createSymbolicLink(local.resolve("escape"), ROOT.resolve("outside"));
		Files.createSymbolicLink(local.resolve("dangling"), ROOT.resolve("nowhere"));
		Files.writeString(local.resolve("real.txt"), "x");
		Files.createSymbolicLink(local.resolve("inside"), local.resolve("real.txt"));
		Answer answer = this.api.get("/api/files/ls?path=/data/" + folder).browser(alice()).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.names()).containsExactly("inside", "real.txt");
		assertThat(answer.text()).doesNotContain(CANARY).doesNotContain("escape");
		assertThat(this.api.get("/api/files/ls?path=/data/" + folder + "/escape").browser(alice()).send().status())
			.isEqualTo(403);
	}

	@Test
	void errorsHaveTheEnvelopeAndTheirStatus() {
		String cookie = alice();
		Answer missing = this.api.get("/api/files/ls?path=/scratch/" + unique("missing")).browser(cookie).send();
		assertThat(missing.status()).isEqualTo(404);
		assertThat(missing.json().path("status").stringValue()).isEqualTo("error");
		assertThat(missing.message()).startsWith("Not found");
		String file = unique("file");
		this.api.post("/api/files/touch?path=/scratch/" + file).browser(cookie).send();
		assertThat(this.api.get("/api/files/ls?path=/scratch/" + file).browser(cookie).send().status()).isEqualTo(409);
		assertThat(this.api.get("/api/files/ls?path=/nomount/").browser(cookie).send().status()).isEqualTo(404);
		assertThat(this.api.get("/api/files/ls?path=/scratch/a//b").browser(cookie).send().status()).isEqualTo(400);
		assertThat(this.api.get("/api/files/ls?path=/a&path=/b").browser(cookie).send().status()).isEqualTo(400);
		assertThat(this.api.post("/api/files/ls?path=/").browser(cookie).send().status()).isEqualTo(405);
		assertThat(this.api.get("/api/files/nothing").browser(cookie).send().status()).isEqualTo(404);
	}

	@Test
	void pathsOutsideTheApiAreLeftToTheRestOfTheApplication() {
		// Paths outside /api/ belong to the web UI ("/") and the rest of the application,
		// not to the file API.
		Answer other = this.api.get("/elsewhere").send();
		assertThat(other.status()).isEqualTo(404);
		assertThat(other.text()).doesNotContain("\"status\":\"error\"");
	}

}
