package dev.wharf.filemanager.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import dev.wharf.core.testsupport.JvmTempFolder;
import dev.wharf.core.testsupport.Requirements;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium, driven by Selenium through Debian's chromedriver (never a
 * downloaded one; both are required, so a machine without them fails the test rather than
 * skipping it), downloading into a given folder without asking. Waits are bounded by
 * {@link #WAIT}. Not thread-safe; one per test class, closed after it.
 */
public final class Chromium implements AutoCloseable {

	/** The longest any wait lasts. */
	public static final Duration WAIT = Duration.ofSeconds(30);

	private final ChromeDriverService service;

	private final ChromeDriver browser;

	private Chromium(ChromeDriverService service, ChromeDriver browser) {
		this.service = service;
		this.browser = browser;
	}

	/**
	 * Starts the browser.
	 * @param downloads where downloads go
	 * @return the browser
	 */
	public static Chromium start(Path downloads) {
		Path driver = Requirements.requireExecutable("chromedriver", "chromium-driver");
		Path chromium = Requirements.requireExecutable("chromium", "chromium");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(chromium.toFile());
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
				"--disable-component-update", "--no-first-run", "--window-size=1280,900");
		options.setExperimentalOption("prefs",
				Map.of("download.default_directory", downloads.toString(), "download.prompt_for_download", false));
		ChromeDriver browser = new ChromeDriver(service, options);
		browser.manage().timeouts().scriptTimeout(WAIT);
		return new Chromium(service, browser);
	}

	/** The driver. */
	public ChromeDriver driver() {
		return this.browser;
	}

	/** Clicks an element once it can be clicked. */
	public void click(By by) {
		wait(ExpectedConditions.elementToBeClickable(by)).click();
	}

	/** Waits for an element to be visible. */
	public WebElement waitFor(By by) {
		return wait(ExpectedConditions.visibilityOfElementLocated(by));
	}

	/** Waits for a condition. */
	public <T> T wait(Function<? super WebDriver, T> condition) {
		return new WebDriverWait(this.browser, WAIT).until(condition);
	}

	/** Runs a script in the page. */
	public Object script(String code) {
		return ((JavascriptExecutor) this.browser).executeScript(code);
	}

	@Override
	public void close() {
		this.browser.quit();
		this.service.stop();
	}

	/**
	 * One browser for a test class ({@code @RegisterExtension static final}): started
	 * before the class's {@code @BeforeAll} methods, downloading into a folder of its
	 * own, closed after the class.
	 */
	public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

		private @Nullable Chromium browser;

		private @Nullable Path downloads;

		/** The running browser. */
		public Chromium browser() {
			if (this.browser == null) {
				throw new IllegalStateException("The browser starts before the test class's @BeforeAll methods");
			}
			return this.browser;
		}

		/** Where the browser's downloads go. */
		public Path downloads() {
			if (this.downloads == null) {
				throw new IllegalStateException("The browser starts before the test class's @BeforeAll methods");
			}
			return this.downloads;
		}

		@Override
		public void beforeAll(ExtensionContext context) {
			this.downloads = JvmTempFolder.create("wharf-chromium-downloads");
			this.browser = Chromium.start(this.downloads);
		}

		@Override
		public void afterAll(ExtensionContext context) {
			if (this.browser != null) {
				this.browser.close();
				this.browser = null;
			}
		}

	}

}
