package dev.wharf.filemanager.ui;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import javax.imageio.ImageIO;

import dev.wharf.filemanager.testsupport.Chromium;
import dev.wharf.filemanager.testsupport.CuttingProxy;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The UI in Debian's headless Chromium, driven by Selenium through Debian's chromedriver
 * (never a downloaded one), served under a base path ({@code /files}) as behind a reverse
 * proxy's sub-path. One browser for the class; each test logs in and out itself.
 */
class BrowserTests extends FileManagerTestBase {

	private static final String BASE = "/files";

	@RegisterExtension
	static final Chromium.PerClass chromium = new Chromium.PerClass();

	private static ChromeDriver browser;

	private static Path downloads;

	@DynamicPropertySource
	static void basePath(DynamicPropertyRegistry registry) {
		registry.add("spring.webflux.base-path", () -> BASE);
	}

	@BeforeAll
	static void browser() {
		browser = chromium.browser().driver();
		downloads = chromium.downloads();
	}

	@Test
	void basePathWithoutItsSlashIsRedirected() throws Exception {
		HttpResponse<Void> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + BASE)).build(),
					BodyHandlers.discarding());
		assertThat(response.statusCode()).isEqualTo(301);
		assertThat(response.headers().firstValue("Location")).hasValue(BASE + "/");
	}

	@Test
	void wrongPasswordShowsAnError() {
		open();
		login("alice", "not-the-password");
		WebElement error = waitFor(By.id("login-error"));
		wait(driver -> !error.getText().isBlank());
		assertThat(error.getText()).contains("Wrong user name or password");
		assertThat(browser.findElements(By.id("logout"))).isEmpty();
	}

	@Test
	void manageFilesFromLoginToLogout(@TempDir Path local) throws IOException {
		String name = unique("ui");
		Path folder = ROOT.resolve("data").resolve(name);
		Files.createDirectories(folder.resolve("docs"));
		Files.writeString(folder.resolve("docs/readme.txt"), "Read me, please.", StandardCharsets.UTF_8);
		BufferedImage image = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
		for (int x = 0; x < 64; x++) {
			for (int y = 0; y < 48; y++) {
				image.setRGB(x, y, (x * 4) << 16 | (y * 5) << 8 | 0xa0);
			}
		}
		ImageIO.write(image, "png", folder.resolve("photo.png").toFile());
		Path album = local.resolve("album");
		Files.createDirectories(album.resolve("sub"));
		Files.writeString(album.resolve("a.txt"), "first", StandardCharsets.UTF_8);
		Files.writeString(album.resolve("sub/b.txt"), "second", StandardCharsets.UTF_8);

		open();
		login("alice", ALICE_PASSWORD);
		click(entry("/data"));
		click(entry("/data/" + name));
		wait(ExpectedConditions.textToBe(By.cssSelector(".crumbs [aria-current]"), name));

		// The image's thumbnail is decoded by the browser.
		wait(driver -> Boolean.TRUE.equals(script(
				"const img = document.querySelector('.entry img.thumb'); return !!img && img.complete && img.naturalWidth > 0")));

		// A folder dropped on the listing (files picked by Chromium with their relative
		// paths, dropped as a synthetic DataTransfer).
		WebElement picker = (WebElement) script("const input = document.createElement('input'); input.type = 'file';"
				+ " input.webkitdirectory = true; input.id = 'test-picker'; document.body.append(input); return input;");
		picker.sendKeys(album.toString());
		script("const dt = new DataTransfer(); for (const f of document.getElementById('test-picker').files) dt.items.add(f);"
				+ " const area = document.getElementById('files');"
				+ " area.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));"
				+ " area.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));"
				+ " document.getElementById('test-picker').remove();");
		wait(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Uploaded 2 files"));
		assertThat(browser.findElement(By.id("upload-total")).getDomProperty("value"))
			.isEqualTo(browser.findElement(By.id("upload-total")).getDomProperty("max"));
		assertThat(folder.resolve("album/sub/b.txt")).hasContent("second");
		assertThat(folder.resolve("album/a.txt")).hasContent("first");
		saveScreenshots();

		// Rename with the keyboard: Space selects the focused entry, F2 renames it.
		WebElement albumEntry = waitFor(entry("/data/" + name + "/album"));
		albumEntry.sendKeys(" ");
		waitFor(By.id("rename"));
		browser.switchTo().activeElement().sendKeys(Keys.F2);
		WebElement input = waitFor(By.id("dialog-input"));
		input.sendKeys(Keys.chord(Keys.CONTROL, "a"), "renamed", Keys.ENTER);
		waitFor(entry("/data/" + name + "/renamed"));
		assertThat(folder.resolve("renamed/sub/b.txt")).exists();
		assertThat(folder.resolve("album")).doesNotExist();

		// Copy into docs through the folder picker.
		transfer("/data/" + name + "/renamed", "Copy", "docs", "Copied");
		assertThat(folder.resolve("docs/renamed/sub/b.txt")).hasContent("second");
		assertThat(folder.resolve("renamed/sub/b.txt")).exists();

		// Move the image into docs.
		transfer("/data/" + name + "/photo.png", "Move", "docs", "Moved");
		assertThat(folder.resolve("docs/photo.png")).exists();
		assertThat(folder.resolve("photo.png")).doesNotExist();

		// Delete, after confirming.
		select("/data/" + name + "/renamed");
		click(By.id("delete"));
		click(By.xpath("//dialog//button[normalize-space()='Delete']"));
		wait(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Deleted"));
		assertThat(folder.resolve("renamed")).doesNotExist();

		// Search below the folder and preview a text file found.
		waitFor(By.id("search")).sendKeys("readme", Keys.ENTER);
		click(entry("/data/" + name + "/docs/readme.txt"));
		wait(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("dialog .preview-text"),
				"Read me, please."));
		click(By.xpath("//dialog//button[normalize-space()='Close']"));

		// Back to the folder, into docs, in the grid view (thumbnails there too), and
		// download everything as a zip.
		click(By.linkText(name));
		click(entry("/data/" + name + "/docs"));
		click(By.id("view"));
		waitFor(By.cssSelector("main.view-grid"));
		wait(driver -> Boolean.TRUE.equals(script(
				"const img = document.querySelector('.view-grid img.thumb'); return !!img && img.complete && img.naturalWidth > 0")));
		click(By.id("view"));
		waitFor(By.cssSelector("main.view-list"));
		click(By.cssSelector("label[for=select-all]"));
		click(By.id("download"));
		Path zip = downloads.resolve("download.zip");
		wait(driver -> Files.exists(zip));
		assertThat(zipEntries(zip)).contains("readme.txt", "photo.png", "renamed/sub/b.txt");

		// Back up through the breadcrumbs, then log out: the session is over on the
		// server too.
		click(By.linkText(name));
		wait(ExpectedConditions.textToBe(By.cssSelector(".crumbs [aria-current]"), name));
		click(By.id("logout"));
		waitFor(By.id("username"));
		browser.navigate().refresh();
		waitFor(By.id("username"));
		assertThat(browser.findElements(By.id("logout"))).isEmpty();
	}

	@Test
	void aBrokenUploadResumesWhereTheServerStopped(@TempDir Path local) throws IOException {
		String name = unique("resume");
		Files.createDirectories(ROOT.resolve("data").resolve(name));
		byte[] content = new byte[MAX_UPLOAD - 1024];
		new Random(42).nextBytes(content);
		Path big = Files.write(local.resolve("big.bin"), content);
		// The browser talks through a relay that breaks the first connection to carry
		// more than a few
		// segments of a body, as a network failure would (Chromium's own upload
		// throttling is not reliable
		// across versions: without it the whole file went through before the page could
		// abort it). Chromium
		// may send the request again by itself when the broken connection was a reused
		// one; the server then
		// answers 409 and the page asks where to resume, as after any other failure.
		try (CuttingProxy proxy = new CuttingProxy(this.port, 5L * SEGMENT, Duration.ofSeconds(2))) {
			open(proxy.port());
			login("alice", ALICE_PASSWORD);
			click(entry("/data"));
			click(entry("/data/" + name));
			waitFor(By.id("new-folder"));
			// Record the offset of every PATCH, to see the upload continue rather than
			// start again.
			script("window.offsets = []; const set = XMLHttpRequest.prototype.setRequestHeader;"
					+ " XMLHttpRequest.prototype.setRequestHeader = function (k, v) { if (k === 'Upload-Offset') offsets.push(Number(v));"
					+ " return set.call(this, k, v); };");
			browser.findElement(By.id("upload-files")).sendKeys(big.toString());
			wait(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "Uploaded 1 file"));
			assertThat(proxy.hasCut()).isTrue();
			assertThat(Files.readAllBytes(ROOT.resolve("data").resolve(name).resolve("big.bin"))).isEqualTo(content);
			@SuppressWarnings("unchecked")
			List<Long> offsets = (List<Long>) script("return offsets");
			assertThat(offsets.get(0)).isZero();
			assertThat(offsets).as("PATCH offsets").hasSizeGreaterThan(1).last().isNotEqualTo(0L);
			click(By.id("logout"));
			waitFor(By.id("username"));
		}
	}

	private void open() {
		open(this.port);
	}

	private static void open(int port) {
		browser.manage().deleteAllCookies();
		browser.get("http://127.0.0.1:" + port + BASE + "/");
	}

	private static void login(String user, String password) {
		waitFor(By.id("username")).sendKeys(user);
		browser.findElement(By.id("password")).sendKeys(password, Keys.ENTER);
	}

	private static By entry(String path) {
		return By.cssSelector("[data-path=\"" + path + "\"]");
	}

	private static void select(String path) {
		WebElement entry = waitFor(entry(path));
		entry.findElement(By.xpath("./ancestor::li//label[contains(@class,'select')]")).click();
		waitFor(By.id("copy"));
	}

	/**
	 * Selects an entry, copies or moves it into a sibling folder chosen in the picker,
	 * and waits for the news.
	 */
	private static void transfer(String path, String verb, String folder, String done) {
		select(path);
		click(By.id(verb.toLowerCase(Locale.ROOT)));
		click(By.xpath("//dialog//button[contains(@class,'picker-folder') and normalize-space()='" + folder + "']"));
		click(By.xpath("//dialog//button[normalize-space()='" + verb + " to " + folder + "']"));
		wait(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), done));
	}

	private static void click(By by) {
		chromium.browser().click(by);
	}

	private static WebElement waitFor(By by) {
		return chromium.browser().waitFor(by);
	}

	private static <T> T wait(Function<? super WebDriver, T> condition) {
		return chromium.browser().wait(condition);
	}

	private static Object script(String code) {
		return chromium.browser().script(code);
	}

	private static List<String> zipEntries(Path zip) throws IOException {
		List<String> names = new ArrayList<>();
		try (ZipFile file = new ZipFile(zip.toFile())) {
			for (Enumeration<? extends ZipEntry> e = file.entries(); e.hasMoreElements();) {
				names.add(e.nextElement().getName());
			}
		}
		return names;
	}

	/**
	 * The main view at desktop and phone width, for the README (copied to docs/images/ by
	 * hand).
	 */
	private static void saveScreenshots() throws IOException {
		Path target = Path.of("target", "screenshots");
		Files.createDirectories(target);
		Files.write(target.resolve("desktop.png"), browser.getScreenshotAs(OutputType.BYTES));
		browser.manage().window().setSize(new Dimension(390, 844));
		Files.write(target.resolve("phone.png"), browser.getScreenshotAs(OutputType.BYTES));
		browser.manage().window().setSize(new Dimension(1280, 900));
	}

}
