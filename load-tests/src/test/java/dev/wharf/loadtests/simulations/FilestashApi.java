package dev.wharf.loadtests.simulations;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.gatling.javaapi.core.ChainBuilder;

import dev.wharf.loadtests.AbLevels;
import dev.wharf.loadtests.Parameters;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The file manager's Filestash-compatible API as Filestash's own benchmarks called it:
 * one session cookie taken once ({@code POST /api/session}) and then sent by hand on
 * every request as {@code Cookie: auth=…} with {@code X-Requested-With: XmlHttpRequest},
 * exactly like {@code ab -H … -H …}; paths percent-encoded the way the ab command lines
 * show them ({@code ?path=%2F}).
 *
 * <p>
 * Immutable once logged in; the request builders are safe to share between levels.
 */
final class FilestashApi {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

	private final String baseUrl;

	private final String cookie;

	private FilestashApi(String baseUrl, String cookie) {
		this.baseUrl = baseUrl;
		this.cookie = cookie;
	}

	/**
	 * Logs in and keeps the {@code auth} cookie.
	 * @param baseUrl the server
	 * @param user the user name
	 * @param password the password
	 * @return the logged-in API
	 */
	static FilestashApi login(String baseUrl, String user, String password) {
		return session(baseUrl, "{\"username\":\"" + json(user) + "\",\"password\":\"" + json(password) + "\"}",
				"log in as " + user);
	}

	/**
	 * The session a part of a table lists or reads files with: Wharf's one login
	 * ({@code user} and {@code password}), which sees every mount as a top-level folder;
	 * or, when {@code -D<backend>Session} holds a login body, a session of its own.
	 * Filestash logs in per backend ({@code {"type":"blackhole"}},
	 * {@code {"type":"sftp","hostname":…,"path":…}}), each session seeing its backend's
	 * folder as {@code /}.
	 * @param baseUrl the server
	 * @param backend {@code memory} or {@code sftp}
	 * @return the logged-in API
	 */
	static FilestashApi forBackend(String baseUrl, String backend) {
		String body = Parameters.text(backend + "Session", "");
		if (body.isEmpty()) {
			return login(baseUrl, Parameters.text("user", "bench"), Parameters.text("password", ""));
		}
		return session(baseUrl, body, "open a " + backend + " session");
	}

	/**
	 * Whether a backend's session is one of its own (a Filestash backend) rather than
	 * Wharf's login.
	 * @param backend {@code memory} or {@code sftp}
	 * @return true when {@code -D<backend>Session} is set
	 */
	static boolean ownSession(String backend) {
		return !Parameters.text(backend + "Session", "").isEmpty();
	}

	private static FilestashApi session(String baseUrl, String body, String what) {
		FilestashApi anonymous = new FilestashApi(baseUrl, "");
		HttpResponse<String> response = anonymous.send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/session"))
			.header("Content-Type", "application/json")
			.header("X-Requested-With", "XmlHttpRequest")
			.POST(HttpRequest.BodyPublishers.ofString(body)), what);
		List<String> cookies = response.headers().allValues("Set-Cookie");
		for (String setCookie : cookies) {
			if (setCookie.startsWith("auth=")) {
				int end = setCookie.indexOf(';');
				return new FilestashApi(baseUrl, setCookie.substring(5, (end < 0) ? setCookie.length() : end));
			}
		}
		throw new IllegalStateException("POST /api/session answered without an auth cookie: " + cookies);
	}

	/**
	 * Makes sure a folder holds the given files, uploading the missing ones (a memory
	 * mount starts empty).
	 * @param folder the folder, such as {@code /memory/}
	 * @param names the file names
	 * @param size the size of each file
	 */
	void ensureFiles(String folder, List<String> names, int size) {
		for (String name : names) {
			String path = folder + name;
			send(browser(HttpRequest.newBuilder(URI.create(this.baseUrl + "/api/files/save?path=" + encode(path)))
				.POST(HttpRequest.BodyPublishers.ofByteArray(new byte[size]))), "upload " + path);
		}
	}

	/**
	 * {@code GET /api/files/ls?path=…} with the cookie and the header.
	 * @param path the folder
	 * @return one request, checked for 200
	 */
	ChainBuilder ls(String path) {
		return exec(AbLevels.checked(http("ls").get("/api/files/ls?path=" + encode(path))
			.header("X-Requested-With", "XmlHttpRequest")
			.header("Cookie", "auth=" + this.cookie), status().is(200)));
	}

	/**
	 * {@code GET /api/files/cat?path=…&thumbnail=true} with the cookie and the header.
	 * @param path the image
	 * @return one request, checked for 200 and an image
	 */
	ChainBuilder thumbnail(String path) {
		return exec(AbLevels.checked(
				http("thumbnail").get("/api/files/cat?path=" + encode(path) + "&thumbnail=true")
					.header("X-Requested-With", "XmlHttpRequest")
					.header("Cookie", "auth=" + this.cookie),
				status().is(200), header("Content-Type").transform((type) -> type.startsWith("image/")).is(true)));
	}

	/**
	 * A static page, without cookie or header, as the originals requested {@code /} and
	 * {@code /login}.
	 * @param path the page
	 * @return one request, checked for 200
	 */
	static ChainBuilder page(String path) {
		return exec(AbLevels.checked(http("page").get(path), status().is(200)));
	}

	private HttpRequest.Builder browser(HttpRequest.Builder request) {
		return request.header("X-Requested-With", "XmlHttpRequest").header("Cookie", "auth=" + this.cookie);
	}

	private HttpResponse<String> send(HttpRequest.Builder request, String what) {
		try {
			HttpResponse<String> response = this.client.send(request.timeout(TIMEOUT).build(),
					HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() / 100 != 2) {
				throw new IllegalStateException(
						"Cannot " + what + ": HTTP " + response.statusCode() + " " + response.body());
			}
			return response;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot " + what + " at " + this.baseUrl + ": " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	static String encode(String path) {
		return URLEncoder.encode(path, StandardCharsets.UTF_8).replace("+", "%20");
	}

	private static String json(String text) {
		return text.replace("\\", "\\\\").replace("\"", "\\\"");
	}

}
