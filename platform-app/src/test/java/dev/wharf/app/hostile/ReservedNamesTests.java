package dev.wharf.app.hostile;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.Requirements;
import dev.wharf.ftp.server.WharfFtpServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Names reserved for Wharf's own files ({@code .wharf}, {@code .wharf-*}: upload state,
 * the build cache's entries) are refused however a client spells them: in another case,
 * or with trailing dots or spaces, which case-insensitive file systems (macOS, Windows)
 * and Windows' name rules take for the reserved name itself, so {@code .WHARF-BUILDCACHE}
 * would reach the build cache's entries there. Through the file manager's {@code mkdir}
 * (400, nothing created) and {@code cat} of a build-cache entry. The thumbnails the file
 * manager keeps in a mount ({@code .wharf/thumbnails/}) cannot be listed or fetched over
 * FTP, with Python's ftplib, nor listed, found, zipped or fetched through the file
 * manager.
 */
class ReservedNamesTests extends HostileServerTestBase {

	@Autowired
	WharfFtpServer ftp;

	@ParameterizedTest
	@ValueSource(strings = { ".WHARF", ".Wharf", ".Wharf-buildcache", ".WHARF-BUILDCACHE", ".wharf.", ".wharf%20",
			".wharf-uploads.%20", ".Wharf-tmp-x", ".wharf-index..." })
	void mkdirRefusesAReservedNameInAnySpelling(String encodedName) throws IOException {
		List<String> before = namesInMount();
		RawHttp.Response made = api("POST", "/api/files/mkdir?path=/data/" + encodedName);
		assertThat(made.status()).as(made.text()).isEqualTo(400);
		assertThat(made.text()).contains("reserved");
		assertThat(namesInMount()).isEqualTo(before);
	}

	@ParameterizedTest
	@ValueSource(strings = { ".WHARF-BUILDCACHE", ".Wharf-Buildcache", ".wharf-buildcache.", ".wharf-buildcache%20" })
	void theBuildCachesFolderCannotBeReadInAnotherSpelling(String encodedName) throws IOException {
		RawHttp.Response listing = api("GET", "/api/files/ls?path=/data/" + encodedName + "/");
		assertThat(listing.status()).as(listing.text()).isEqualTo(400);
		RawHttp.Response entry = api("GET", "/api/files/cat?path=/data/" + encodedName + "/0123456789abcdef");
		assertThat(entry.status()).as(entry.text()).isEqualTo(400);
	}

	@Test
	void keptThumbnailsAreInvisibleOverFtpAndTheFileManager() throws Exception {
		String python = Requirements.requireExecutable("python3", "python3").toString();
		String name = unique("photo") + ".jpg";
		Path photo = Files.createTempFile(ROOT, "photo", ".jpg");
		BufferedImage image = new BufferedImage(800, 600, BufferedImage.TYPE_INT_RGB);
		ImageIO.write(image, "jpg", photo.toFile());
		String upload = "f.storbinary('STOR ' + sys.argv[3], open(sys.argv[4], 'rb'))";
		assertThat(ftplib(python, upload, name, photo.toString()).exitValue()).isZero();
		RawHttp.Response thumbnail = api("GET", "/api/files/cat?thumbnail=true&path=/data/" + name);
		assertThat(thumbnail.status()).as(thumbnail.text()).isEqualTo(200);
		Path kept = await().atMost(Duration.ofSeconds(30)).until(() -> keptThumbnail(), found -> found != null);
		String reserved = DATA.relativize(kept).toString();
		String look = String.join("\n", "print('NLST', sorted(f.nlst()))",
				"print('MLSD', sorted(n for n, facts in f.mlsd()))",
				"for command in ('RETR ' + sys.argv[3], 'CWD .wharf', 'SIZE ' + sys.argv[3]):", "    try:",
				"        f.retrbinary(command, lambda data: print('GOT', len(data))) if command.startswith('RETR') else f.sendcmd(command)",
				"        print('ALLOWED', command)", "    except ftplib.error_perm as refused:",
				"        print('REFUSED', str(refused)[:3])");
		Process listing = ftplib(python, look, reserved, "");
		String output = new String(listing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(listing.exitValue()).as(output).isZero();
		assertThat(output).as(output)
			.contains(name)
			.doesNotContain(".wharf'")
			.doesNotContain("ALLOWED")
			.doesNotContain("GOT");
		assertThat(output.lines().filter(line -> line.startsWith("REFUSED 5"))).as(output).hasSize(3);
		RawHttp.Response ls = api("GET", "/api/files/ls?path=/data/");
		assertThat(ls.status()).as(ls.text()).isEqualTo(200);
		// Other tests leave names such as "x.wharfdoc" in the mount: only a name that
		// starts with ".wharf" is reserved.
		assertThat(ls.text()).contains(name).doesNotContain("\".wharf");
		RawHttp.Response found = api("GET", "/api/files/search?path=/data/&q=jpg");
		assertThat(found.status()).as(found.text()).isEqualTo(200);
		assertThat(found.text()).contains(name).doesNotContain("/.wharf").doesNotContain("\".wharf");
		RawHttp.Response zip = api("GET", "/api/files/zip?path=/data/");
		assertThat(zip.status()).isEqualTo(200);
		assertThat(zip.zipNames()).anyMatch(entry -> entry.endsWith(name))
			.noneMatch(entry -> ("/" + entry).contains("/.wharf"));
		RawHttp.Response fetched = api("GET", "/api/files/cat?path=/data/" + reserved);
		assertThat(fetched.status()).as(fetched.text()).isEqualTo(400);
	}

	/**
	 * Runs Python's ftplib, logged in as alice, with a script's lines;
	 * {@code sys.argv[3]} and on are extras.
	 */
	private Process ftplib(String python, String lines, String... extras) throws Exception {
		String script = "import ftplib, sys\nf = ftplib.FTP()\nf.connect('127.0.0.1', int(sys.argv[1]), timeout=60)\n"
				+ "f.login('alice', sys.argv[2])\n" + lines + "\nf.quit()\n";
		List<String> command = new ArrayList<>(
				List.of(python, "-c", script, Integer.toString(this.ftp.port()), ALICE_PASSWORD));
		command.addAll(List.of(extras));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return process;
	}

	/** The first thumbnail kept in the data mount, or {@code null}. */
	private static @Nullable Path keptThumbnail() throws IOException {
		Path folder = DATA.resolve(".wharf").resolve("thumbnails");
		if (!Files.isDirectory(folder)) {
			return null;
		}
		try (Stream<Path> files = Files.walk(folder)) {
			return files.filter(file -> file.toString().endsWith(".jpg")).findFirst().orElse(null);
		}
	}

	private RawHttp.Response api(String method, String target) throws IOException {
		return RawHttp.exchange(this.port, method + " " + target + " HTTP/1.1\r\nHost: x\r\nCookie: " + aliceSession()
				+ "\r\nX-Requested-With: XmlHttpRequest\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
	}

	private static List<String> namesInMount() throws IOException {
		try (Stream<Path> names = Files.list(DATA)) {
			return names.map(path -> path.getFileName().toString()).sorted().toList();
		}
	}

}
