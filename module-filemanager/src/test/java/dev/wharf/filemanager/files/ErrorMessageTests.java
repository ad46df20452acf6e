package dev.wharf.filemanager.files;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The error messages of every file endpoint name paths as the client gave them, with the
 * mount's folder ({@code /data/…}), on a local mount ({@code data}) and a memory mount
 * ({@code scratch}) alike: a path inside the mount ({@code /tus}) would send the user
 * looking for a folder at the top level.
 */
class ErrorMessageTests extends FileManagerTestBase {

	private String cookie;

	private String data;

	private String scratch;

	@BeforeEach
	void prepare() {
		this.cookie = alice();
		this.data = "/data/" + unique("errors");
		this.scratch = "/scratch/" + unique("errors");
		for (String folder : new String[] { this.data, this.scratch }) {
			ok(post("/api/files/mkdir?path=" + folder));
			ok(post("/api/files/mkdir?path=" + folder + "/sub"));
			ok(this.api.post("/api/files/save?path=" + folder + "/file.txt").browser(this.cookie).body("x").send());
			ok(this.api.post("/api/files/save?path=" + folder + "/other.txt").browser(this.cookie).body("y").send());
		}
	}

	@Test
	void listingAndReading() {
		for (String folder : new String[] { this.data, this.scratch }) {
			expect(get("/api/files/ls?path=" + folder + "/nope"), 404, "Not found: " + folder + "/nope");
			expect(get("/api/files/ls?path=" + folder + "/file.txt"), 409, "Not a folder: " + folder + "/file.txt");
			expect(get("/api/files/cat?path=" + folder + "/nope.txt"), 404, "Not found: " + folder + "/nope.txt");
			expect(get("/api/files/cat?path=" + folder + "/sub"), 409, "Not a file: " + folder + "/sub");
			expect(get("/api/files/cat?thumbnail=true&path=" + folder + "/nope.png"), 404,
					"Not found: " + folder + "/nope.png");
			expect(get("/api/files/search?q=x&path=" + folder + "/nope"), 404, "Not found: " + folder + "/nope");
			expect(get("/api/files/search?q=x&path=" + folder + "/file.txt"), 409,
					"Not a folder: " + folder + "/file.txt");
			expect(get("/api/files/zip?path=" + folder + "/nope"), 404, "Not found: " + folder + "/nope");
		}
		expect(get("/api/files/ls?path=/nomount/x"), 404, "Not found: /nomount/x");
	}

	@Test
	void creatingAndSaving() {
		for (String folder : new String[] { this.data, this.scratch }) {
			expect(post("/api/files/mkdir?path=" + folder + "/sub"), 409, "Already exists: " + folder + "/sub");
			expect(post("/api/files/mkdir?path=" + folder + "/nope/new"), 404, "Not found: " + folder + "/nope");
			expect(post("/api/files/touch?path=" + folder + "/file.txt"), 409,
					"Already exists: " + folder + "/file.txt");
			expect(post("/api/files/touch?path=" + folder + "/nope/new.txt"), 404, "Not found: " + folder + "/nope");
			expect(this.api.post("/api/files/save?path=" + folder + "/nope/new.txt")
				.browser(this.cookie)
				.body("x")
				.send(), 404, "Not found: " + folder + "/nope");
			expect(this.api.post("/api/files/save?path=" + folder + "/sub").browser(this.cookie).body("x").send(), 409,
					"Is a folder: " + folder + "/sub");
		}
	}

	@Test
	void removingMovingAndCopying() {
		for (String folder : new String[] { this.data, this.scratch }) {
			expect(post("/api/files/rm?path=" + folder + "/nope"), 404, "Not found: " + folder + "/nope");
			expect(post("/api/files/mv?from=" + folder + "/nope&to=" + folder + "/moved"), 404,
					"Not found: " + folder + "/nope");
			expect(post("/api/files/mv?from=" + folder + "/file.txt&to=" + folder + "/other.txt"), 409,
					"Already exists: " + folder + "/other.txt");
			expect(post("/api/files/cp?from=" + folder + "/nope&to=" + folder + "/copied"), 404,
					"Not found: " + folder + "/nope");
			expect(post("/api/files/cp?from=" + folder + "/file.txt&to=" + folder + "/other.txt"), 409,
					"Already exists: " + folder + "/other.txt");
			expect(post("/api/files/cp?from=" + folder + "/sub&to=" + folder + "/sub/inner"), 409,
					"Cannot move or copy " + folder + "/sub into itself");
		}
		// Across mounts each side's errors name that side's mount.
		expect(post("/api/files/cp?from=" + this.data + "/nope&to=" + this.scratch + "/copied"), 404,
				"Not found: " + this.data + "/nope");
		expect(post("/api/files/cp?from=" + this.data + "/file.txt&to=" + this.scratch + "/file.txt"), 409,
				"Already exists: " + this.scratch + "/file.txt");
		expect(post("/api/files/mv?from=" + this.scratch + "/file.txt&to=" + this.data + "/file.txt"), 409,
				"Already exists: " + this.data + "/file.txt");
	}

	@Test
	void resumableUploadsSayWhichFolderIsMissing() {
		for (String folder : new String[] { this.data, this.scratch }) {
			expect(tus(folder + "/tus/big.bin"), 404, "Folder not found: " + folder + "/tus");
			expect(tus(folder + "/file.txt/big.bin"), 409, "Not a folder: " + folder + "/file.txt");
			expect(tus(folder + "/sub"), 409, "Is a folder: " + folder + "/sub");
		}
	}

	private Answer tus(String path) {
		return this.api.post("/api/files/upload?path=" + path)
			.browser(this.cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", "10")
			.send();
	}

	private Answer get(String target) {
		return this.api.get(target).browser(this.cookie).send();
	}

	private Answer post(String target) {
		return this.api.post(target).browser(this.cookie).send();
	}

	private static void ok(Answer answer) {
		assertThat(answer.status()).as(answer.text()).isEqualTo(200);
	}

	private static void expect(Answer answer, int status, String message) {
		assertThat(answer.status()).as(answer.text()).isEqualTo(status);
		assertThat(answer.header("Content-Type")).isEqualTo("application/json");
		assertThat(answer.message()).isEqualTo(message);
	}

}
