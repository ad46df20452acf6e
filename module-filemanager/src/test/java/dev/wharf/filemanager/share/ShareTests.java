package dev.wharf.filemanager.share;

import java.io.ByteArrayInputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.share.Share;
import dev.wharf.core.testsupport.MutableClock;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.filemanager.testsupport.Api;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import dev.wharf.filemanager.testsupport.ShareTestApplication;
import dev.wharf.filemanager.testsupport.ShareTestApplication.TestUsers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Share links through the API: making, listing, changing and revoking them; what visitors
 * may do with each kind (read-only, upload-only, read-write), that they act as the share
 * and only below its root, every answer a link can give (404 unknown or revoked, 410
 * expired or used up, 401 without the password's proof, 403 with a wrong one or for what
 * the link does not allow), the creator's rights checked on every request, and the audit
 * lines. Expiry is tested by moving the server's clock.
 */
@SpringBootTest(classes = ShareTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class ShareTests extends FileManagerTestBase {

	@Autowired
	private MutableClock clock;

	@Autowired
	private TestUsers users;

	private String alice;

	@BeforeEach
	void login() {
		this.alice = alice();
	}

	@AfterEach
	void restoreDora() {
		this.users.put(ShareTestApplication.dora(MountAccess.READ_WRITE), ShareTestApplication.DORA_PASSWORD);
	}

	@Test
	void aShareIsMadeWithAServerIdListedChangedAndRevoked() {
		String folder = folderWith("/scratch", "a.txt", "hello");
		Answer made = this.api.post("/api/share")
			.browser(this.alice)
			.json("{\"path\":\"" + folder + "\",\"can_read\":true,\"max_downloads\":5}")
			.send();
		assertThat(made.status()).as(made.text()).isEqualTo(200);
		String id = made.json().path("result").path("id").stringValue();
		assertThat(id).hasSize(Share.ID_CHARS).matches("[A-Za-z0-9_-]+");
		assertThat(made.json().path("result").path("path").stringValue()).isEqualTo(folder);
		Answer listed = this.api.get("/api/share?path=" + folder).browser(this.alice).send();
		assertThat(listed.json().path("results").findValuesAsString("id")).containsExactly(id);
		assertThat(this.api.get("/api/share?path=/data")
			.browser(this.alice)
			.send()
			.json()
			.path("results")
			.findValuesAsString("id")).doesNotContain(id);
		Answer changed = this.api.post("/api/share/" + id)
			.browser(this.alice)
			.json("{\"can_read\":true,\"can_write\":true,\"password\":\"s3cret\"}")
			.send();
		assertThat(changed.status()).as(changed.text()).isEqualTo(200);
		assertThat(changed.json().path("result").path("can_write").booleanValue()).isTrue();
		assertThat(changed.json().path("result").path("password").stringValue()).isEqualTo("{{PASSWORD}}");
		assertThat(changed.json().path("result").path("max_downloads").intValue()).as("kept").isEqualTo(5);
		assertThat(changed.text()).doesNotContain("s3cret").doesNotContain("bcrypt");
		Answer moved = this.api.post("/api/share/" + id)
			.browser(this.alice)
			.json("{\"path\":\"/data" + folder.substring(8) + "\"}")
			.send();
		assertThat(moved.status()).as("the same path in another mount").isEqualTo(400);
		assertThat(moved.message()).contains("cannot change");
		assertThat(this.api.request("DELETE", "/api/share/" + id).browser(this.alice).send().status()).isEqualTo(200);
		Answer revoked = ls(id, "/");
		Answer unknown = ls(Share.newId(), "/");
		assertThat(revoked.status()).isEqualTo(404);
		assertThat(revoked.text()).isEqualTo(unknown.text());
		assertThat(this.api.request("DELETE", "/api/share/" + id).browser(this.alice).send().status()).isEqualTo(404);
	}

	@Test
	void clientsCannotChooseIds() {
		String folder = folderWith("/scratch", "a.txt", "x");
		Answer named = this.api.post("/api/share/" + Share.newId())
			.browser(this.alice)
			.json("{\"path\":\"" + folder + "\",\"can_read\":true}")
			.send();
		assertThat(named.status()).isEqualTo(400);
		assertThat(named.message()).contains("ids are made by the server");
		Answer inBody = this.api.post("/api/share")
			.browser(this.alice)
			.json("{\"id\":\"mine\",\"path\":\"" + folder + "\"}")
			.send();
		assertThat(inBody.status()).isEqualTo(400);
		assertThat(inBody.message()).contains("ids are made by the server");
		assertThat(this.api.get("/api/share").browser(this.alice).send().text()).doesNotContain("mine");
	}

	@Test
	void usersShareOnlyWhatTheyMayReadWithRightsTheyHold() throws Exception {
		String bob = this.api.login("bob", BOB_PASSWORD);
		String folder = unique("bobs");
		Files.createDirectories(ROOT.resolve("data").resolve(folder));
		String path = "/data/" + folder;
		assertThat(create(bob, path, "\"can_upload\":true").status()).as("upload on a read-only mount").isEqualTo(403);
		Answer readWrite = create(bob, path, "\"can_read\":true,\"can_write\":true");
		assertThat(readWrite.status()).isEqualTo(403);
		assertThat(readWrite.message()).contains("rights you hold");
		assertThat(create(bob, path, "\"can_read\":true").status()).isEqualTo(200);
		assertThat(create(bob, "/scratch", "\"can_read\":true").status()).as("a mount bob cannot see").isEqualTo(404);
		assertThat(create(this.alice, "/data/" + unique("missing"), "\"can_read\":true").status()).isEqualTo(404);
		assertThat(create(this.alice, "/", "\"can_read\":true").status()).as("the top level").isEqualTo(403);
		assertThat(create(this.alice, "/pass", "\"can_read\":true").status()).as("a mount that logs in as each user")
			.isEqualTo(400);
		assertThat(create(this.alice, path, "\"can_read\":true,\"can_upload\":true").status()).as("no such mix")
			.isEqualTo(400);
		assertThat(create(this.alice, path, "\"expire\":" + (this.clock.millis() - 1)).status()).isEqualTo(400);
		assertThat(create(this.alice, path, "\"max_downloads\":-1").status()).isEqualTo(400);
		assertThat(this.api.post("/api/share").json("{\"path\":\"" + path + "\"}").send().status()).as("nobody")
			.isEqualTo(401);
		assertThat(this.api.get("/api/files/ls?path=/data")
			.browser(this.alice)
			.send()
			.json()
			.path("permissions")
			.path("can_share")
			.booleanValue()).isTrue();
		assertThat(this.api.get("/api/files/ls?path=/pass")
			.browser(this.alice)
			.send()
			.json()
			.path("permissions")
			.path("can_share")
			.booleanValue()).isFalse();
	}

	@Test
	void aReadOnlyLinkListsAndDownloadsBelowItsRootAsTheShareButChangesNothing() throws Exception {
		String folder = folderWith("/scratch", "a.txt", "hello");
		this.api.post("/api/files/mkdir?path=" + folder + "/sub").browser(this.alice).send();
		this.api.post("/api/files/save?path=" + folder + "/sub/b.txt").browser(this.alice).body("inner").send();
		String id = id(create(this.alice, folder, "\"can_read\":true"));
		Answer listing = ls(id, "/");
		assertThat(listing.status()).as(listing.text()).isEqualTo(200);
		assertThat(listing.json().path("results").findValuesAsString("name")).containsExactly("a.txt", "sub");
		assertThat(listing.json().path("permissions").path("can_upload").booleanValue()).isFalse();
		assertThat(listing.json().path("permissions").path("can_share").booleanValue()).isFalse();
		assertThat(ls(id, "/sub").json().path("results").findValuesAsString("name")).containsExactly("b.txt");
		assertThat(visit("GET", "cat", "/a.txt", id).text()).isEqualTo("hello");
		Answer whole = visit("GET", "zip", "/", id);
		assertThat(whole.header("Content-Disposition"))
			.contains(folder.substring(folder.lastIndexOf('/') + 1) + ".zip");
		Answer zip = visit("GET", "zip", "/sub", id);
		assertThat(zip.status()).isEqualTo(200);
		List<String> names = new ArrayList<>();
		try (ZipInputStream entries = new ZipInputStream(new ByteArrayInputStream(zip.body()))) {
			for (ZipEntry entry = entries.getNextEntry(); entry != null; entry = entries.getNextEntry()) {
				names.add(entry.getName());
			}
		}
		assertThat(names).containsExactly("sub/", "sub/b.txt");
		Answer save = visit("POST", "save", "/c.txt", id);
		assertThat(save.status()).isEqualTo(403);
		assertThat(save.message()).isEqualTo("This share link is read-only");
		assertThat(visit("POST", "mkdir", "/d", id).status()).isEqualTo(403);
		assertThat(visit("POST", "rm", "/a.txt", id).status()).isEqualTo(403);
		assertThat(this.api.get("/api/files/ls?path=" + folder)
			.browser(this.alice)
			.send()
			.json()
			.path("results")
			.findValuesAsString("name")).containsExactly("a.txt", "sub");
		assertThat(this.api.get("/api/files/ls?path=/scratch&share=" + id)
			.send()
			.json()
			.path("results")
			.findValuesAsString("name")).as("/scratch is a path below the share, not the mount").isEmpty();
	}

	@Test
	void anUploadOnlyLinkTakesNewFilesAndShowsNothing() {
		String folder = folderWith("/scratch", "private.txt", "not for visitors");
		String id = id(create(this.alice, folder, "\"can_upload\":true"));
		Answer upload = this.api.post("/api/files/save?path=/dropped.txt&share=" + id).body("from a visitor").send();
		assertThat(upload.status()).as(upload.text()).isEqualTo(200);
		assertThat(this.api.get("/api/files/cat?path=" + folder + "/dropped.txt").browser(this.alice).send().text())
			.isEqualTo("from a visitor");
		Answer replace = this.api.post("/api/files/save?path=/private.txt&share=" + id).body("overwritten").send();
		assertThat(replace.status()).isEqualTo(409);
		assertThat(this.api.get("/api/files/cat?path=" + folder + "/private.txt").browser(this.alice).send().text())
			.isEqualTo("not for visitors");
		Answer listing = ls(id, "/");
		assertThat(listing.status()).isEqualTo(403);
		assertThat(listing.message()).isEqualTo("This share link is for uploads only");
		assertThat(listing.text()).doesNotContain("private.txt");
		assertThat(visit("GET", "cat", "/private.txt", id).status()).isEqualTo(403);
		assertThat(visit("GET", "zip", "/", id).status()).isEqualTo(403);
		assertThat(create(this.alice, folder + "/private.txt", "\"can_upload\":true").status()).as("of a file")
			.isEqualTo(400);
	}

	@Test
	void aReadWriteLinkChangesBelowItsRootButNotTheRootItself() {
		String folder = folderWith("/scratch", "a.txt", "one");
		String id = id(create(this.alice, folder, "\"can_read\":true,\"can_write\":true,\"can_upload\":true"));
		assertThat(this.api.post("/api/files/save?path=/a.txt&share=" + id).body("two").send().status()).isEqualTo(200);
		assertThat(visit("GET", "cat", "/a.txt", id).text()).isEqualTo("two");
		assertThat(visit("POST", "mkdir", "/new", id).status()).isEqualTo(200);
		assertThat(this.api.post("/api/files/mv?from=/a.txt&to=/new/a.txt&share=" + id).send().status()).isEqualTo(200);
		Answer root = visit("POST", "rm", "/", id);
		assertThat(root.status()).isEqualTo(403);
		assertThat(this.api.get("/api/files/ls?path=" + folder + "/new")
			.browser(this.alice)
			.send()
			.json()
			.path("results")
			.findValuesAsString("name")).containsExactly("a.txt");
	}

	@Test
	void traversalOutOfAShareIsRefusedAndChangesNothing() throws Exception {
		String outside = unique("outside-share");
		Path data = ROOT.resolve("data");
		Files.writeString(data.resolve(outside + ".txt"), CANARY);
		Files.createDirectories(data.resolve(outside).resolve("inner"));
		String id = id(create(this.alice, "/data/" + outside + "/inner", "\"can_read\":true,\"can_write\":true"));
		List<String> vectors = List.of("/../../" + outside + ".txt", "/%2e%2e/%2e%2e/" + outside + ".txt",
				"%2F..%2F..%2F" + outside + ".txt", "/..%2F..%2F" + outside + ".txt", "..", "/..",
				"/x/../../../" + outside + ".txt", "//" + outside + ".txt", "/..%5C..%5C" + outside + ".txt",
				"/%c0%ae%c0%ae/" + outside + ".txt", "/data/" + outside + ".txt", "/" + outside + ".txt%00");
		List<String> answers = new ArrayList<>();
		for (String vector : vectors) {
			for (String[] request : List.of(new String[] { "GET", "ls" }, new String[] { "GET", "cat" },
					new String[] { "GET", "zip" }, new String[] { "POST", "save" }, new String[] { "POST", "mkdir" },
					new String[] { "POST", "rm" })) {
				String target = "/api/files/" + request[1] + "?share=" + id + "&path=" + vector;
				Answer answer = this.api.request(request[0], target).body("overwritten").send();
				answers.add(request[1] + " " + vector + " -> " + answer.status());
				assertThat(answer.status()).as(request[1] + " " + vector).isIn(400, 403, 404, 409);
				assertThat(answer.text()).as("nothing above the share")
					.doesNotContain(CANARY)
					.doesNotContain(outside + "/inner");
			}
		}
		assertThat(Files.readString(data.resolve(outside + ".txt"))).isEqualTo(CANARY);
		try (var listing = Files.list(data.resolve(outside))) {
			assertThat(listing.map(p -> p.getFileName().toString())).as(answers.toString()).containsExactly("inner");
		}
		try (var listing = Files.list(data.resolve(outside).resolve("inner"))) {
			assertThat(listing).as(answers.toString()).isEmpty();
		}
	}

	@Test
	void aSharedFileIsTheWholeTree() throws Exception {
		String folder = folderWith("/scratch", "report.txt", "the report");
		String id = id(create(this.alice, folder + "/report.txt", "\"can_read\":true"));
		assertThat(visit("GET", "cat", "/", id).text()).isEqualTo("the report");
		assertThat(visit("GET", "cat", "/report.txt", id).status()).isIn(404, 409);
		Answer info = this.api.get("/api/share/" + id).send();
		assertThat(info.json().path("result").path("type").stringValue()).isEqualTo("file");
		assertThat(info.json().path("result").path("name").stringValue()).isEqualTo("report.txt");
	}

	@Test
	void aPasswordIsProvedOnceWithACookieWrongOnesAreRefusedAndThrottled() {
		String folder = folderWith("/scratch", "a.txt", "secret content");
		String id = id(create(this.alice, folder, "\"can_read\":true,\"password\":\"open sesame\""));
		Answer missing = ls(id, "/");
		assertThat(missing.status()).isEqualTo(401);
		assertThat(missing.message()).contains("needs its password");
		assertThat(this.api.get("/api/share/" + id).send().status()).isEqualTo(401);
		Answer wrong = proof(id, "guess", "10.0.0.1");
		assertThat(wrong.status()).isEqualTo(403);
		assertThat(wrong.json().path("status").stringValue()).isEqualTo("error");
		assertThat(wrong.message()).isEqualTo("Wrong password");
		assertThat(wrong.header("Set-Cookie")).isNull();
		assertThat(this.api.post("/api/share/" + id + "/proof")
			.json("{\"type\":\"password\",\"value\":\"open sesame\"}")
			.send()
			.status()).as("without X-Requested-With").isEqualTo(403);
		Answer right = proof(id, "open sesame", "10.0.0.2");
		assertThat(right.status()).isEqualTo(200);
		String cookie = right.header("Set-Cookie");
		assertThat(cookie).containsIgnoringCase("HttpOnly").contains("SameSite=Strict").doesNotContain(id);
		String proofCookie = cookie.substring(0, cookie.indexOf(';'));
		assertThat(this.api.get("/api/files/ls?path=/&share=" + id).browser(proofCookie).send().status())
			.isEqualTo(200);
		assertThat(this.api.get("/api/files/ls?path=/&share=" + id).header("Cookie", proofCookie).send().status())
			.as("the cookie without X-Requested-With")
			.isEqualTo(403);
		assertThat(this.api.get("/api/files/cat?path=/a.txt&share=" + id).header("Cookie", proofCookie).send().text())
			.as("a download link")
			.isEqualTo("secret content");
		assertThat(this.api.get("/api/files/ls?path=/&share=" + id)
			.browser(proofCookie.substring(0, proofCookie.length() - 2) + "xx")
			.send()
			.status()).as("a forged proof").isEqualTo(401);
		this.api.post("/api/share/" + id).browser(this.alice).json("{\"password\":\"changed\"}").send();
		assertThat(this.api.get("/api/files/ls?path=/&share=" + id).browser(proofCookie).send().status())
			.as("a proof of the old password")
			.isEqualTo(401);
		for (int i = 0; i <= LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
			assertThat(proof(id, "guess " + i, "10.0.0.3").status()).isEqualTo(403);
		}
		Answer throttled = proof(id, "changed", "10.0.0.3");
		assertThat(throttled.status()).as("even the right password while locked").isEqualTo(429);
		assertThat(throttled.header("Retry-After")).isNotNull();
	}

	@Test
	void anExpiredLinkIsGoneAndItsPageSaysSo() {
		String folder = folderWith("/scratch", "a.txt", "x");
		String id = id(create(this.alice, folder, "\"can_read\":true,\"expire\":" + (this.clock.millis() + 3_600_000)));
		assertThat(ls(id, "/").status()).isEqualTo(200);
		assertThat(this.api.get("/s/" + id).send().status()).isEqualTo(200);
		this.clock.advance(Duration.ofHours(2));
		Answer expired = ls(id, "/");
		assertThat(expired.status()).isEqualTo(410);
		assertThat(expired.message()).isEqualTo("This share link has expired");
		assertThat(visit("GET", "cat", "/a.txt", id).status()).isEqualTo(410);
		Answer page = this.api.get("/s/" + id).send();
		assertThat(page.status()).isEqualTo(410);
		assertThat(page.header("Content-Type")).startsWith("text/html");
		assertThat(this.api.get("/s/" + Share.newId()).send().status()).isEqualTo(404);
		assertThat(this.api.get("/s/..%2Findex.html").send().status()).isEqualTo(404);
	}

	@Test
	void downloadsAreCountedUpToTheLimit() {
		String folder = folderWith("/scratch", "a.txt", "x");
		String id = id(create(this.alice, folder, "\"can_read\":true,\"max_downloads\":2"));
		assertThat(visit("HEAD", "cat", "/a.txt", id).status()).as("not a download").isEqualTo(200);
		assertThat(this.api.get("/api/files/cat?thumbnail=true&path=/a.txt&share=" + id).send().status())
			.as("a thumbnail")
			.isEqualTo(415);
		assertThat(visit("GET", "cat", "/a.txt", id).status()).isEqualTo(200);
		assertThat(visit("GET", "zip", "/", id).status()).isEqualTo(200);
		Answer usedUp = visit("GET", "cat", "/a.txt", id);
		assertThat(usedUp.status()).isEqualTo(410);
		assertThat(usedUp.message()).isEqualTo("This share link's downloads are used up");
		assertThat(ls(id, "/").status()).isEqualTo(410);
		assertThat(this.api.get("/api/share")
			.browser(this.alice)
			.send()
			.json()
			.path("results")
			.findValues("downloads")
			.stream()
			.map(node -> node.intValue())
			.toList()).contains(2);
	}

	@Test
	void aLinkEndsWhenItsCreatorIsRemovedOrLosesTheRight() throws Exception {
		String dora = this.api.login("dora", ShareTestApplication.DORA_PASSWORD);
		String folder = unique("doras");
		Files.createDirectories(ROOT.resolve("data").resolve(folder));
		String readWrite = id(create(dora, "/data/" + folder, "\"can_read\":true,\"can_write\":true"));
		String read = id(create(dora, "/data/" + folder, "\"can_read\":true"));
		assertThat(ls(readWrite, "/").status()).isEqualTo(200);
		this.users.put(ShareTestApplication.dora(MountAccess.READ_ONLY), ShareTestApplication.DORA_PASSWORD);
		assertThat(ls(readWrite, "/").status()).as("more than dora may now grant").isEqualTo(404);
		assertThat(this.api.post("/api/files/save?path=/x.txt&share=" + readWrite).body("x").send().status())
			.isEqualTo(404);
		assertThat(ls(read, "/").status()).as("what dora still holds").isEqualTo(200);
		this.users.remove("dora");
		assertThat(ls(read, "/").status()).isEqualTo(404);
		assertThat(Files.exists(ROOT.resolve("data").resolve(folder).resolve("x.txt"))).isFalse();
	}

	@Test
	void aRevocationCutsADownloadInProgress() throws Exception {
		String folder = unique("big");
		Path big = ROOT.resolve("data").resolve(folder).resolve("big.bin");
		Files.createDirectories(big.getParent());
		long size = 64L * 1024 * 1024;
		try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
			file.setLength(size);
		}
		String id = id(create(this.alice, "/data/" + folder, "\"can_read\":true"));
		try (RawHttp reader = RawHttp.openWithReceiveBuffer(this.port, 64 * 1024)) {
			reader.send("GET /api/files/cat?path=/big.bin&share=" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
			assertThat(reader.readHead().contentLength()).isEqualTo(size);
			assertThat(reader.body().readNBytes(64 * 1024)).hasSize(64 * 1024);
			assertThat(this.api.request("DELETE", "/api/share/" + id).browser(this.alice).send().status())
				.isEqualTo(200);
			// About 6 MB/s: the whole file would take ten seconds; the link's watch cuts
			// it within about one.
			assertThatThrownBy(() -> reader.readSlowly(size - 64 * 1024, 64 * 1024, Duration.ofMillis(10)))
				.isInstanceOf(AssertionError.class)
				.hasMessageContaining("the server closed the connection");
		}
	}

	@Test
	void everyAccessIsAudited(CapturedOutput output) {
		String folder = folderWith("/scratch", "a.txt", "x");
		String id = id(create(this.alice, folder, "\"can_read\":true"));
		String who = "share:" + id.substring(0, 8);
		assertThat(visit("GET", "cat", "/a.txt", id).status()).isEqualTo(200);
		assertThat(visit("POST", "save", "/b.txt", id).status()).isEqualTo(403);
		this.api.request("DELETE", "/api/share/" + id).browser(this.alice).send();
		ls(id, "/");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(output.getOut())
				.contains("user=alice action=share-create target=\"" + who + " scratch:" + folder.substring(8)
						+ "\" outcome=success")
				.contains("user=" + who + " action=share-download target=scratch:" + folder.substring(8)
						+ "/a.txt outcome=success client=127.0.0.1")
				.contains("user=" + who + " action=share-upload target=- outcome=denied client=127.0.0.1")
				.contains("user=alice action=share-revoke target=" + who + " outcome=success")
				.contains("user=" + who + " action=share-list target=- outcome=refused_404 client=127.0.0.1"));
		assertThat(output.getOut()).doesNotContain(id);
	}

	private String folderWith(String mount, String name, String content) {
		String folder = mount + "/" + unique("shared");
		assertThat(this.api.post("/api/files/mkdir?path=" + folder).browser(this.alice).send().status()).isEqualTo(200);
		Answer saved = this.api.post("/api/files/save?path=" + folder + "/" + name)
			.browser(this.alice)
			.body(content)
			.send();
		assertThat(saved.status()).as(saved.text()).isEqualTo(200);
		return folder;
	}

	private Answer create(String cookie, String path, String options) {
		return this.api.post("/api/share").browser(cookie).json("{\"path\":\"" + path + "\"," + options + "}").send();
	}

	private static String id(Answer created) {
		assertThat(created.status()).as(created.text()).isEqualTo(200);
		return created.json().path("result").path("id").stringValue();
	}

	private Answer ls(String id, String path) {
		return visit("GET", "ls", path, id);
	}

	private Answer visit(String method, String endpoint, String path, String id) {
		return this.api.request(method, "/api/files/" + endpoint + "?path=" + path + "&share=" + id).send();
	}

	private Answer proof(String id, String password, String client) {
		return this.api.post("/api/share/" + id + "/proof")
			.header(Api.XRW, "XmlHttpRequest")
			.header("X-Forwarded-For", client)
			.json("{\"type\":\"password\",\"value\":\"" + password + "\"}")
			.send();
	}

}
