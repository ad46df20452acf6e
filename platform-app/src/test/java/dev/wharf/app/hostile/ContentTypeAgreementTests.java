package dev.wharf.app.hostile;

import java.nio.file.Files;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One file, one type: a file that a static site and the file manager both send gets the
 * same {@code Content-Type} from each (core's {@code MediaTypeRegistry}), except that the
 * file manager sends the types a browser could run (HTML, SVG, XML, JavaScript) as
 * {@code text/plain}, so what a user stores is never active on the file manager's origin.
 */
class ContentTypeAgreementTests extends HostileServerTestBase {

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			// extension | type from both | the file manager's, if it differs
			"txt|text/plain; charset=utf-8|", "md|text/markdown; charset=utf-8|", "csv|text/csv; charset=utf-8|",
			"java|text/x-java-source; charset=utf-8|", "json|application/json|", "css|text/css; charset=utf-8|",
			"png|image/png|", "jpg|image/jpeg|", "webp|image/webp|", "pdf|application/pdf|", "wav|audio/wav|",
			"flac|audio/flac|", "mp4|video/mp4|", "m4v|video/mp4|", "tar.gz|application/gzip|", "zip|application/zip|",
			"deb|application/vnd.debian.binary-package|", "woff2|font/woff2|", "wharfdoc|application/octet-stream|",
			"html|text/html; charset=utf-8|text/plain", "js|text/javascript; charset=utf-8|text/plain",
			"svg|image/svg+xml|text/plain", "xml|text/xml; charset=utf-8|text/plain",
			"xhtml|application/xhtml+xml|text/plain" })
	void aFileHasOneTypeWhicheverModuleSendsIt(String extension, String type, String fileManagerType) throws Exception {
		String name = unique("same") + "." + extension;
		Files.writeString(DATA.resolve("public").resolve(name), "content of " + name);
		RawHttp.Response site = RawHttp.exchange(this.port,
				"GET /static/" + name + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		RawHttp.Response download = RawHttp.exchange(this.port,
				"GET /api/files/cat?path=/data/public/" + name + " HTTP/1.1\r\n" + "Host: x\r\nCookie: "
						+ aliceSession() + "\r\nX-Requested-With: XmlHttpRequest\r\nConnection: close\r\n\r\n");
		assertThat(site.status()).isEqualTo(200);
		assertThat(download.status()).isEqualTo(200);
		assertThat(site.header("content-type")).isEqualTo(type);
		assertThat(download.header("content-type")).isEqualTo((fileManagerType != null) ? fileManagerType : type);
		assertThat(site.text()).isEqualTo(download.text()).isEqualTo("content of " + name);
	}

}
