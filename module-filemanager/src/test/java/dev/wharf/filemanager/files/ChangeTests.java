package dev.wharf.filemanager.files;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mkdir}, {@code touch}, {@code rm}, {@code mv} and {@code cp}, over real HTTP,
 * within and across mounts, and their audit lines.
 */
@ExtendWith(OutputCaptureExtension.class)
class ChangeTests extends FileManagerTestBase {

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	private Answer post(String target) {
		return this.api.post(target).browser(this.cookie).send();
	}

	private String text(String path) {
		return this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().text();
	}

	private int status(String path) {
		return this.api.get("/api/files/cat?path=" + path).browser(this.cookie).send().status();
	}

	@Test
	void mkdirAndTouchCreateOnlyWhatIsNotThere() {
		String folder = "/data/" + unique("dir");
		assertThat(post("/api/files/mkdir?path=" + folder + "/").status()).isEqualTo(200);
		assertThat(post("/api/files/mkdir?path=" + folder).status()).isEqualTo(409);
		assertThat(post("/api/files/mkdir?path=" + folder + "/a/b").status()).isEqualTo(404);
		assertThat(post("/api/files/touch?path=" + folder + "/empty.txt").status()).isEqualTo(200);
		assertThat(this.api.get("/api/files/cat?path=" + folder + "/empty.txt").browser(this.cookie).send().body())
			.isEmpty();
		assertThat(post("/api/files/touch?path=" + folder + "/empty.txt").status()).isEqualTo(409);
		assertThat(post("/api/files/mkdir?path=/newmount").status()).isEqualTo(404);
		assertThat(post("/api/files/mkdir?path=/scratch").status()).isEqualTo(403);
	}

	@Test
	void rmDeletesFilesAndWholeFoldersButNeverAMount() {
		String folder = "/scratch/" + unique("tree");
		post("/api/files/mkdir?path=" + folder);
		post("/api/files/mkdir?path=" + folder + "/sub");
		this.api.post("/api/files/save?path=" + folder + "/sub/f").browser(this.cookie).body("x").send();
		assertThat(post("/api/files/rm?path=" + folder + "/").status()).isEqualTo(200);
		assertThat(this.api.get("/api/files/ls?path=" + folder).browser(this.cookie).send().status()).isEqualTo(404);
		assertThat(post("/api/files/rm?path=" + folder).status()).isEqualTo(404);
		assertThat(post("/api/files/rm?path=/scratch").status()).isEqualTo(403);
		assertThat(post("/api/files/rm?path=/").status()).isEqualTo(403);
		assertThat(post("/api/files/rm?path=/ro/anything").status()).isEqualTo(403);
	}

	@Test
	void mvRenamesWithinAMountAndNeverReplaces() {
		String a = "/data/" + unique("a");
		String b = "/data/" + unique("b");
		this.api.post("/api/files/save?path=" + a).browser(this.cookie).body("A").send();
		assertThat(post("/api/files/mv?from=" + a + "&to=" + b).status()).isEqualTo(200);
		assertThat(status(a)).isEqualTo(404);
		assertThat(text(b)).isEqualTo("A");
		this.api.post("/api/files/save?path=" + a).browser(this.cookie).body("other").send();
		assertThat(post("/api/files/mv?from=" + a + "&to=" + b).status()).isEqualTo(409);
		assertThat(text(b)).isEqualTo("A");
		assertThat(post("/api/files/mv?from=" + a).status()).isEqualTo(400);
		assertThat(post("/api/files/mv?from=/data&to=/data2").status()).isEqualTo(403);
	}

	@Test
	void aFolderCannotMoveIntoItself() {
		String folder = "/scratch/" + unique("self");
		post("/api/files/mkdir?path=" + folder);
		assertThat(post("/api/files/mv?from=" + folder + "&to=" + folder + "/inside").status()).isEqualTo(409);
		assertThat(post("/api/files/cp?from=" + folder + "&to=" + folder + "/inside").status()).isEqualTo(409);
	}

	@Test
	void cpCopiesFilesAndFoldersWithinAMount() {
		String folder = "/scratch/" + unique("src");
		post("/api/files/mkdir?path=" + folder);
		this.api.post("/api/files/save?path=" + folder + "/f.txt").browser(this.cookie).body("content").send();
		String copy = "/scratch/" + unique("copy");
		assertThat(post("/api/files/cp?from=" + folder + "&to=" + copy).status()).isEqualTo(200);
		assertThat(text(copy + "/f.txt")).isEqualTo("content");
		assertThat(text(folder + "/f.txt")).isEqualTo("content");
		assertThat(post("/api/files/cp?from=" + folder + "&to=" + copy).status()).isEqualTo(409);
		assertThat(post("/api/files/cp?from=/scratch/" + unique("none") + "&to=" + copy + "2").status()).isEqualTo(404);
	}

	@Test
	void cpAndMvWorkAcrossMounts() {
		String folder = unique("cross");
		post("/api/files/mkdir?path=/data/" + folder);
		this.api.post("/api/files/save?path=/data/" + folder + "/f.txt").browser(this.cookie).body("across").send();
		assertThat(post("/api/files/cp?from=/data/" + folder + "&to=/scratch/" + folder).status()).isEqualTo(200);
		assertThat(text("/scratch/" + folder + "/f.txt")).isEqualTo("across");
		assertThat(text("/data/" + folder + "/f.txt")).isEqualTo("across");
		assertThat(post("/api/files/mv?from=/scratch/" + folder + "/f.txt&to=/data/" + folder + "/g.txt").status())
			.isEqualTo(200);
		assertThat(status("/scratch/" + folder + "/f.txt")).isEqualTo(404);
		assertThat(text("/data/" + folder + "/g.txt")).isEqualTo("across");
		// Out of a read-only mount nothing moves: the copy is not even started.
		assertThat(post("/api/files/mv?from=/ro/x&to=/scratch/" + unique("y")).status()).isEqualTo(403);
		assertThat(post("/api/files/cp?from=/data/" + folder + "&to=/ro/" + folder).status()).isEqualTo(403);
	}

	@Test
	void changesAreAudited(CapturedOutput output) {
		String path = "/scratch/" + unique("audited");
		post("/api/files/touch?path=" + path);
		post("/api/files/rm?path=" + path);
		post("/api/files/rm?path=/ro/denied");
		assertThat(output.getOut())
			.contains("audit protocol=http user=alice action=touch target=scratch:" + path.substring(8)
					+ " outcome=success client=127.0.0.1")
			.contains("user=alice action=delete target=scratch:" + path.substring(8) + " outcome=success")
			.contains("user=alice action=delete target=ro:/denied outcome=denied");
	}

}
