package dev.wharf.filemanager.http;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.Curl;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request targets with UTF-8 that is not percent-encoded, as curl and some libraries send
 * it: the bytes are read as UTF-8 (not as ISO-8859-1, which made {@code raw-ünï} into
 * {@code raw-Ã¼nÃ¯} and {@code 日本} into an empty 400), malformed UTF-8 is refused with
 * the API's JSON 400, and so is a target that is no URI at all. Sent by curl (which puts
 * the URL's bytes on the wire as given) and through a plain socket.
 */
class RawUtf8TargetTests extends FileManagerTestBase {

	private static final List<String> NAMES = List.of("raw-ünï", "é", "日本", "emoji-\uD83D\uDE00");

	/**
	 * Byte sequences that are not UTF-8: a lone continuation byte, a cut-off sequence, an
	 * overlong '/', a surrogate.
	 */
	private static final List<byte[]> NOT_UTF8 = List.of(new byte[] { (byte) 0xFF }, new byte[] { (byte) 0xC3 },
			new byte[] { (byte) 0xC0, (byte) 0xAF }, new byte[] { (byte) 0xED, (byte) 0xA0, (byte) 0x80 });

	@TempDir
	Path temp;

	private String token;

	private String folder;

	@BeforeEach
	void prepare() {
		this.token = this.api.token("alice", ALICE_PASSWORD);
		this.folder = "/scratch/" + unique("raw");
		assertThat(this.api.post("/api/files/mkdir?path=" + this.folder).bearer(this.token).send().status())
			.isEqualTo(200);
	}

	@Test
	void curlCreatesTheNamesItSendsUnencoded() throws Exception {
		Curl curl = Curl.require(this.temp);
		for (String name : NAMES) {
			byte[] url = bytes(
					"http://127.0.0.1:" + this.port + "/api/files/mkdir?path=" + this.folder + "/curl-" + name + "/");
			Answer answer = curl.send(url, "-X", "POST", "-H", "Authorization: Bearer " + this.token);
			assertThat(answer.status()).as(name + ": " + answer.text()).isEqualTo(200);
		}
		assertThat(names()).containsExactlyInAnyOrder("curl-raw-ünï", "curl-é", "curl-日本", "curl-emoji-\uD83D\uDE00");
	}

	@Test
	void aPlainSocketCreatesTheNamesItSendsUnencoded() throws Exception {
		for (String name : NAMES) {
			String target = latin1("/api/files/mkdir?path=" + this.folder + "/socket-" + name + "/");
			Answer answer = this.api.post(target).bearer(this.token).sendRaw();
			assertThat(answer.status()).as(name + ": " + answer.text()).isEqualTo(200);
		}
		assertThat(names()).containsExactlyInAnyOrder("socket-raw-ünï", "socket-é", "socket-日本",
				"socket-emoji-\uD83D\uDE00");
		// The names work unencoded everywhere else too, such as saving a file; it is the
		// file the encoded name reads.
		String file = this.folder + "/socket-日本/ファイル.txt";
		Answer saved = this.api.post("/api/files/save?path=" + latin1(file)).bearer(this.token).body("内容").sendRaw();
		assertThat(saved.status()).as(saved.text()).isEqualTo(200);
		Answer read = this.api.get("/api/files/cat?path=" + URLEncoder.encode(file, StandardCharsets.UTF_8))
			.bearer(this.token)
			.send();
		assertThat(read.status()).isEqualTo(200);
		assertThat(read.text()).isEqualTo("内容");
	}

	@Test
	void malformedUtf8IsAJson400AndCreatesNothing() throws Exception {
		Curl curl = Curl.require(this.temp);
		for (byte[] bad : NOT_UTF8) {
			byte[] query = concat(bytes("/api/files/mkdir?path=" + this.folder + "/bad-"), bad);
			Answer socket = this.api.post(new String(query, StandardCharsets.ISO_8859_1)).bearer(this.token).sendRaw();
			expect400(socket, "Invalid path: path is not valid UTF-8");
			Answer viaCurl = curl.send(concat(bytes("http://127.0.0.1:" + this.port), query), "-X", "POST", "-H",
					"Authorization: Bearer " + this.token);
			expect400(viaCurl, "Invalid path: path is not valid UTF-8");
		}
		assertThat(names()).isEmpty();
	}

	@Test
	void aTargetThatIsNoUriIsAJson400() throws Exception {
		String ls = "/api/files/ls?path=" + this.folder;
		expect400(this.api.get(ls + "/100%").bearer(this.token).sendRaw(),
				"Invalid request target: Malformed escape pair at index " + (ls.length() + 4)
						+ "; percent-encode '%' and the characters a URI cannot hold");
		expect400(this.api.get(ls + "/%zz").bearer(this.token).sendRaw(),
				"Invalid request target: Malformed escape pair at index " + (ls.length() + 1)
						+ "; percent-encode '%' and the characters a URI cannot hold");
		expect400(this.api.get(ls + "/a\\b").bearer(this.token).sendRaw(),
				"Invalid request target: Illegal character in query at index " + (ls.length() + 2)
						+ "; percent-encode '%' and the characters a URI cannot hold");
		for (String target : new String[] { ls + "/{x}", ls + "/a\u0001b", ls + "/a\u007Fb", "/api/files/a|b" }) {
			Answer answer = this.api.get(target).bearer(this.token).sendRaw();
			assertThat(answer.status()).as(target).isEqualTo(400);
			assertThat(answer.header("Content-Type")).isEqualTo("application/json");
			assertThat(answer.json().path("status").stringValue()).isEqualTo("error");
			assertThat(answer.message()).startsWith("Invalid request target: Illegal character in ");
		}
		// Well-formed escapes are still only decoded once, later: "%2525" is the name
		// "%25".
		assertThat(
				this.api.post("/api/files/mkdir?path=" + this.folder + "/%2525").bearer(this.token).sendRaw().status())
			.isEqualTo(200);
		assertThat(names()).containsExactly("%25");
	}

	private List<String> names() {
		Answer listing = this.api.get("/api/files/ls?path=" + URLEncoder.encode(this.folder, StandardCharsets.UTF_8))
			.bearer(this.token)
			.send();
		assertThat(listing.status()).as(listing.text()).isEqualTo(200);
		return listing.names();
	}

	private static void expect400(Answer answer, String message) {
		assertThat(answer.status()).as(answer.text()).isEqualTo(400);
		assertThat(answer.header("Content-Type")).isEqualTo("application/json");
		assertThat(answer.json().path("status").stringValue()).isEqualTo("error");
		assertThat(answer.message()).isEqualTo(message);
	}

	/**
	 * Text as its UTF-8 bytes, one character per byte: what {@code sendRaw} puts on the
	 * wire unchanged.
	 */
	private static String latin1(String text) {
		return new String(bytes(text), StandardCharsets.ISO_8859_1);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] concat(byte[] first, byte[] second) {
		ByteArrayOutputStream both = new ByteArrayOutputStream();
		both.writeBytes(first);
		both.writeBytes(second);
		return both.toByteArray();
	}

}
