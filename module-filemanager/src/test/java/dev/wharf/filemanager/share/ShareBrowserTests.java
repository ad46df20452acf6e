package dev.wharf.filemanager.share;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.core.testsupport.MutableClock;
import dev.wharf.filemanager.testsupport.Api;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.Chromium;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import dev.wharf.filemanager.testsupport.ShareTestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Share links end to end in Debian's headless Chromium, under a base path
 * ({@code /files}) as behind a proxy's sub-path: a user makes a password-protected link
 * in the share dialog and a visitor opens it, gives the password and downloads; an
 * upload-only link takes a file and lists nothing; an expired link's page says so (410);
 * and every visitor's access is in the audit log.
 */
@SpringBootTest(classes = ShareTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class ShareBrowserTests extends FileManagerTestBase {

	private static final String BASE = "/files";

	@RegisterExtension
	static final Chromium.PerClass browser = new Chromium.PerClass();

	private Chromium chromium;

	@Autowired
	private MutableClock clock;

	@BeforeEach
	void browser() {
		this.chromium = browser.browser();
	}

	@DynamicPropertySource
	static void basePath(DynamicPropertyRegistry registry) {
		registry.add("spring.webflux.base-path", () -> BASE);
	}

	@Test
	void aVisitorGivesThePasswordOfALinkMadeInTheDialogAndDownloads(CapturedOutput output) throws Exception {
		String name = unique("shared");
		Path folder = ROOT.resolve("data").resolve(name);
		Files.createDirectories(folder);
		Files.writeString(folder.resolve("report.txt"), "The quarterly report.", StandardCharsets.UTF_8);

		this.chromium.driver().manage().deleteAllCookies();
		this.chromium.driver().get(base() + "/");
		this.chromium.waitFor(By.id("username")).sendKeys("alice");
		this.chromium.driver().findElement(By.id("password")).sendKeys(ALICE_PASSWORD, Keys.ENTER);
		this.chromium.click(entry("/data"));
		WebElement shared = this.chromium.waitFor(entry("/data/" + name));
		shared.findElement(By.xpath("./ancestor::li//label[contains(@class,'select')]")).click();
		this.chromium.click(By.id("share"));
		this.chromium.waitFor(By.id("share-password")).sendKeys("open sesame");
		this.chromium.click(By.id("share-create"));
		WebElement link = this.chromium.waitFor(By.cssSelector("#share-list .share-link"));
		String url = link.getDomProperty("value");
		assertThat(url).startsWith(base() + "/s/");
		assertThat(this.chromium.driver().findElement(By.cssSelector("#share-list .share-description")).getText())
			.contains("read-only")
			.contains("password");
		this.chromium.click(By.xpath("//dialog//button[normalize-space()='Close']"));
		this.chromium.click(By.id("logout"));
		this.chromium.waitFor(By.id("username"));

		this.chromium.driver().manage().deleteAllCookies();
		this.chromium.driver().get(url);
		this.chromium.waitFor(By.id("share-password")).sendKeys("a guess", Keys.ENTER);
		this.chromium.wait(ExpectedConditions.textToBePresentInElementLocated(By.id("share-error"), "Wrong password"));
		this.chromium.waitFor(By.id("share-password")).sendKeys("open sesame", Keys.ENTER);
		this.chromium.click(By.linkText("report.txt"));
		Path downloaded = browser.downloads().resolve("report.txt");
		this.chromium.wait(driver -> Files.exists(downloaded) && downloaded.toFile().length() > 0);
		assertThat(downloaded).hasContent("The quarterly report.");
		String who = "share:" + url.substring(url.lastIndexOf('/') + 1, url.lastIndexOf('/') + 9);
		assertThat(output.getOut())
			.contains("user=" + who + " action=share-proof target=- outcome=failure client=127.0.0.1")
			.contains("user=" + who + " action=share-proof target=- outcome=success client=127.0.0.1")
			.contains("user=" + who + " action=share-list target=data:/" + name + " outcome=success client=127.0.0.1")
			.contains("user=" + who + " action=share-download target=data:/" + name
					+ "/report.txt outcome=success client=127.0.0.1");
	}

	@Test
	void theDialogListsTheLinksToAFolderAndRevokesOne() throws Exception {
		String name = unique("revoked");
		Files.createDirectories(ROOT.resolve("data").resolve(name));
		String kept = share("/data/" + name, "\"can_read\":true");
		String revoked = share("/data/" + name, "\"can_read\":true,\"max_downloads\":4");
		this.chromium.driver().manage().deleteAllCookies();
		this.chromium.driver().get(base() + "/");
		this.chromium.waitFor(By.id("username")).sendKeys("alice");
		this.chromium.driver().findElement(By.id("password")).sendKeys(ALICE_PASSWORD, Keys.ENTER);
		this.chromium.click(entry("/data"));
		this.chromium.waitFor(entry("/data/" + name))
			.findElement(By.xpath("./ancestor::li//label[contains(@class,'select')]"))
			.click();
		this.chromium.click(By.id("share"));
		By row = By.cssSelector("#share-list [data-id=\"" + revoked + "\"]");
		assertThat(this.chromium.waitFor(row).getText()).contains("0 of 4 downloads");
		assertThat(this.chromium.driver()
			.findElement(By.cssSelector("#share-list [data-id=\"" + revoked + "\"] .share-link"))
			.getDomProperty("value")).isEqualTo(base() + "/s/" + revoked);
		this.chromium.waitFor(By.cssSelector("#share-list [data-id=\"" + kept + "\"]"));
		this.chromium.driver().findElement(row).findElement(By.className("share-revoke")).click();
		this.chromium.wait(ExpectedConditions.invisibilityOfElementLocated(row));
		this.chromium.click(By.xpath("//dialog//button[normalize-space()='Close']"));
		// Logging out ends the session: its cookie (path /files/api/) is not one the page
		// can delete.
		this.chromium.click(By.id("logout"));
		this.chromium.waitFor(By.id("username"));
		assertThat(this.api.get(BASE + "/api/files/ls?path=/&share=" + revoked).send().status()).isEqualTo(404);
		assertThat(this.api.get(BASE + "/api/files/ls?path=/&share=" + kept).send().status()).isEqualTo(200);
	}

	@Test
	void anUploadOnlyLinkTakesAFileAndListsNothing(@TempDir Path local) throws Exception {
		String name = unique("dropbox");
		Path folder = ROOT.resolve("data").resolve(name);
		Files.createDirectories(folder);
		Files.writeString(folder.resolve("private.txt"), "not for visitors", StandardCharsets.UTF_8);
		String id = share("/data/" + name, "\"can_upload\":true");
		Path file = Files.writeString(local.resolve("invoice.txt"), "An invoice.", StandardCharsets.UTF_8);

		this.chromium.driver().manage().deleteAllCookies();
		this.chromium.driver().get(base() + "/s/" + id);
		this.chromium.waitFor(By.id("share-drop"));
		this.chromium.driver().findElement(By.id("share-upload")).sendKeys(file.toString());
		this.chromium
			.wait(ExpectedConditions.textToBePresentInElementLocated(By.id("share-uploads"), "invoice.txt: uploaded"));
		assertThat(folder.resolve("invoice.txt")).hasContent("An invoice.");
		assertThat(this.chromium.driver().findElements(By.id("share-listing"))).isEmpty();
		assertThat(this.chromium.driver().getPageSource()).doesNotContain("private.txt");
		Answer listing = this.api.get(BASE + "/api/files/ls?path=/&share=" + id).send();
		assertThat(listing.status()).isEqualTo(403);
		assertThat(listing.text()).doesNotContain("private.txt");
	}

	@Test
	void anExpiredLinkShowsItsPageWith410() throws Exception {
		String name = unique("expiring");
		Files.createDirectories(ROOT.resolve("data").resolve(name));
		String id = share("/data/" + name, "\"can_read\":true,\"expire\":" + (this.clock.millis() + 3_600_000));
		this.clock.advance(Duration.ofHours(2));
		this.chromium.driver().manage().deleteAllCookies();
		this.chromium.driver().get(base() + "/s/" + id);
		this.chromium.wait(ExpectedConditions.textToBePresentInElementLocated(By.id("share-error"),
				"This share link has expired"));
		int status = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(base() + "/s/" + id)).build(), BodyHandlers.discarding())
			.statusCode();
		assertThat(status).isEqualTo(410);
	}

	private String base() {
		return "http://127.0.0.1:" + this.port + BASE;
	}

	private String share(String path, String options) {
		String cookie = Api.cookie(this.api.post(BASE + "/api/session")
			.header(Api.XRW, "XmlHttpRequest")
			.json("{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}")
			.send());
		Answer made = this.api.post(BASE + "/api/share")
			.browser(cookie)
			.json("{\"path\":\"" + path + "\"," + options + "}")
			.send();
		assertThat(made.status()).as(made.text()).isEqualTo(200);
		return made.json().path("result").path("id").stringValue();
	}

	private static By entry(String path) {
		return By.cssSelector("[data-path=\"" + path + "\"]");
	}

}
