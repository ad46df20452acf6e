package dev.wharf.app.signin;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import dev.wharf.core.testsupport.FreePorts;
import dev.wharf.core.testsupport.JvmTempFolder;
import dev.wharf.core.testsupport.Requirements;
import dev.wharf.ftp.server.WharfFtpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sign-in through an OpenID Connect provider against the whole application: a real Spring
 * Authorization Server in a process of its own (at {@code localhost}, another site than
 * Wharf at 127.0.0.1), driven through the browser redirects by Debian's headless
 * Chromium. A user clicks "Sign in with …", logs in on the provider's form and lands in
 * the UI with the rights the groups claim gives; mints an API token in the UI right after
 * signing in and uses it as the FTP password with lftp; logs out, which ends the session
 * on the server. A user no rule lets in, and a name that is a configured user's, come
 * back refused; a return that is not this browser's sign-in is refused; a password
 * session cannot mint a token with its cookie.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
@DirtiesContext
class OidcSignInTests {

	static final Path ROOT = JvmTempFolder.create("wharf-oidc-tests");

	static final Duration WAIT = Duration.ofSeconds(30);

	static int port;

	static OidcProviderProcess provider;

	static ChromeDriverService service;

	static ChromeDriver browser;

	@Autowired
	WharfFtpServer ftp;

	Clients clients;

	@DynamicPropertySource
	static void oidc(DynamicPropertyRegistry registry) throws Exception {
		port = FreePorts.loopback();
		provider = OidcProviderProcess.start(ROOT, "http://127.0.0.1:" + port + "/api/session/oidc/callback",
				"olivia:olivia-pw:staff,other;peter:peter-pw:visitors;admin:admin-pw:staff");
		registry.add("server.port", () -> port);
		// A defined port leaves the management port at its default (8335), which any
		// other Wharf on the machine may hold; the tests do not use it.
		registry.add("management.server.port", () -> 0);
		SignInServer.configure(registry, ROOT);
		registry.add("wharf.security.oidc.issuer", provider::issuer);
		registry.add("wharf.security.oidc.client-id", () -> OidcProviderProcess.CLIENT_ID);
		registry.add("wharf.security.oidc.client-secret", () -> OidcProviderProcess.CLIENT_SECRET);
		registry.add("wharf.security.oidc.name", () -> "Example SSO");
		registry.add("wharf.security.directory.rules[0].group", () -> "staff");
		registry.add("wharf.security.directory.rules[0].roles", () -> "user");
		registry.add("wharf.security.directory.rules[0].mounts.data", () -> "rw");
	}

	@BeforeAll
	static void startBrowser() {
		Path driver = Requirements.requireExecutable("chromedriver", "chromium-driver");
		Path chromium = Requirements.requireExecutable("chromium", "chromium");
		service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile()).usingAnyFreePort().build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium.toFile());
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
				"--disable-component-update", "--no-first-run", "--window-size=1280,900");
		browser = new ChromeDriver(service, options);
	}

	@AfterAll
	static void stop() {
		if (browser != null) {
			browser.quit();
		}
		if (service != null) {
			service.stop();
		}
		provider.close();
	}

	@BeforeEach
	void clients() throws Exception {
		this.clients = new Clients(port, this.ftp.port(), Files.createDirectories(ROOT.resolve("client")));
		browser.manage().deleteAllCookies();
		browser.get(provider.issuer() + "/login");
		browser.manage().deleteAllCookies();
	}

	@Test
	void signInMintATokenForFtpAndLogOut() throws Exception {
		signIn("olivia", "olivia-pw");
		assertThat(waitFor(By.cssSelector(".user")).getText()).isEqualTo("olivia");
		waitFor(By.cssSelector("[data-path=\"/data\"]"));
		String session = sessionCookie();
		assertThat(this.clients.withSession(session, "GET", "/api/session", null).body())
			.contains("{\"name\":\"data\",\"access\":\"rw\"}")
			.contains("\"mint_token_until\":");

		// The token, shown once in the UI, is the FTP password of olivia, who has none.
		click(By.id("mint-token"));
		WebElement label = waitFor(By.id("dialog-input"));
		label.clear();
		label.sendKeys("ftp", Keys.ENTER);
		String token = waitFor(By.id("dialog-secret")).getAttribute("value");
		assertThat(token).startsWith("wharf_");
		click(By.xpath("//dialog//button[normalize-space()='Close']"));
		Files.writeString(ROOT.resolve("client/from-oidc.txt"), "signed in elsewhere");
		Clients.Result ftp = this.clients.lftp("olivia", token, "put from-oidc.txt -o from-oidc.txt");
		assertThat(ftp.exit()).as(ftp.output()).isZero();
		assertThat(ROOT.resolve("data/from-oidc.txt")).hasContent("signed in elsewhere");
		assertThat(this.clients.lftp("olivia", "olivia-pw", "cls").output())
			.as("the provider's password is not Wharf's")
			.contains("Login incorrect");

		click(By.id("logout"));
		waitFor(By.id("username"));
		assertThat(this.clients.withSession(session, "GET", "/api/session", null).statusCode()).isEqualTo(401);
		assertThat(this.clients.withSession(session, "POST", "/api/tokens?name=after", null).statusCode())
			.isEqualTo(401);
	}

	@Test
	void aUserNoRuleLetsInComesBackRefused() {
		signIn("peter", "peter-pw");
		assertThat(waitFor(By.id("login-error")).getText()).contains("may not use Wharf");
		assertThat(browser.getCurrentUrl()).doesNotContain("signin=");
		assertThat(browser.findElements(By.id("logout"))).isEmpty();
	}

	@Test
	void aConfiguredUsersNameAtTheProviderIsRefused() throws Exception {
		signIn("admin", "admin-pw");
		assertThat(waitFor(By.id("login-error")).getText()).contains("may not use Wharf");
		// The configured admin still logs in with the configured password, and cannot
		// mint a token with the cookie.
		String admin = Clients.cookie(this.clients.login("admin", SignInServer.ADMIN_PASSWORD));
		HttpResponse<String> mint = this.clients.withSession(admin, "POST", "/api/tokens?name=x", null);
		assertThat(mint.statusCode()).isEqualTo(401);
		assertThat(mint.body()).contains("or a sign-in with Example SSO in the last 10 minutes");
	}

	@Test
	void aReturnThatIsNotThisBrowsersSignInIsRefused() throws Exception {
		HttpResponse<String> start = Clients.send(this.clients.request("/api/session/oidc"));
		assertThat(start.statusCode()).isEqualTo(302);
		URI authorize = URI.create(start.headers().firstValue("Location").orElseThrow());
		assertThat(authorize.toString()).startsWith(provider.issuer() + "/oauth2/authorize?")
			.contains("code_challenge_method=S256")
			.contains("nonce=")
			.contains("redirect_uri=http://127.0.0.1:" + port + "/api/session/oidc/callback");
		String setCookie = start.headers().firstValue("Set-Cookie").orElseThrow();
		assertThat(setCookie).startsWith("wharf-oidc=")
			.contains("Path=/api/session/oidc")
			.containsIgnoringCase("HttpOnly")
			.contains("SameSite=Lax");
		String cookie = setCookie.substring(0, setCookie.indexOf(';'));
		Map<String, Function<String, String>> returns = Map.of("another state", c -> "?code=x&state=forged",
				"no cookie", c -> "?code=x&state=" + query(authorize, "state"));
		for (var kind : returns.entrySet()) {
			var request = this.clients.request("/api/session/oidc/callback" + kind.getValue().apply(cookie));
			if (!kind.getKey().equals("no cookie")) {
				request.header("Cookie", cookie);
			}
			HttpResponse<String> callback = Clients.send(request);
			assertThat(callback.statusCode()).as(kind.getKey()).isEqualTo(302);
			assertThat(callback.headers().firstValue("Location")).as(kind.getKey()).hasValue("/?signin=failed");
			assertThat(callback.headers().allValues("Set-Cookie")).as(kind.getKey())
				.noneMatch(c -> c.startsWith("auth="));
		}
	}

	@Test
	void theLoginPageOffersTheProvider() throws Exception {
		assertThat(Clients.send(this.clients.request("/api/session/methods")).body()).isEqualTo(
				"{\"status\":\"ok\",\"result\":{\"oidc\":{\"name\":\"Example SSO\",\"url\":\"api/session/oidc\"}}}");
		browser.get("http://127.0.0.1:" + port + "/");
		assertThat(waitFor(By.id("oidc-sign-in")).getText()).isEqualTo("Sign in with Example SSO");
	}

	private static String query(URI uri, String name) {
		for (String pair : uri.getRawQuery().split("&")) {
			if (pair.startsWith(name + "=")) {
				return pair.substring(name.length() + 1);
			}
		}
		throw new AssertionError("No " + name + " in " + uri);
	}

	/** Clicks "Sign in with …" and logs in on the provider's form. */
	private static void signIn(String user, String password) {
		browser.get("http://127.0.0.1:" + port + "/");
		click(By.id("oidc-sign-in"));
		wait(ExpectedConditions.urlContains(provider.issuer() + "/login"));
		waitFor(By.id("username")).sendKeys(user);
		browser.findElement(By.id("password")).sendKeys(password, Keys.ENTER);
		wait(ExpectedConditions.urlContains("127.0.0.1:" + port + "/"));
	}

	/**
	 * The {@code Cookie} value of the browser's Wharf session (the cookie is visible
	 * under {@code /api/} only).
	 */
	private static String sessionCookie() {
		String page = browser.getCurrentUrl();
		browser.get("http://127.0.0.1:" + port + "/api/session/methods");
		Cookie auth = browser.manage().getCookieNamed("auth");
		assertThat(auth).isNotNull();
		assertThat(auth.isHttpOnly()).isTrue();
		assertThat(auth.getSameSite()).isEqualTo("Strict");
		browser.get(page);
		return "auth=" + auth.getValue();
	}

	private static void click(By by) {
		wait(ExpectedConditions.elementToBeClickable(by)).click();
	}

	private static WebElement waitFor(By by) {
		return wait(ExpectedConditions.visibilityOfElementLocated(by));
	}

	private static <T> T wait(Function<? super WebDriver, T> condition) {
		return new WebDriverWait(browser, WAIT).until(condition);
	}

}
