package dev.wharf.app.hostile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names reserved for Wharf's own files ({@code .wharf}, {@code .wharf-*}: upload state, the build cache's
 * entries) are refused however a client spells them: in another case, or with trailing dots or spaces, which
 * case-insensitive file systems (macOS, Windows) and Windows' name rules take for the reserved name itself, so
 * {@code .WHARF-BUILDCACHE} would reach the build cache's entries there. Through the file manager's
 * {@code mkdir} (400, nothing created) and {@code cat} of a build-cache entry.
 */
class ReservedNamesTests extends HostileServerTestBase {

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
