package dev.wharf.app.signin;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import dev.wharf.core.testsupport.Processes;
import dev.wharf.core.testsupport.Requirements;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clients the sign-in tests use against one Wharf: the file manager's API over the
 * JDK's HTTP client, and the real {@code lftp} and {@code curl} (required: a missing one
 * fails the test in CI).
 */
final class Clients {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	private final int httpPort;

	private final int ftpPort;

	private final Path folder;

	Clients(int httpPort, int ftpPort, Path folder) {
		this.httpPort = httpPort;
		this.ftpPort = ftpPort;
		this.folder = folder;
	}

	/** A file manager login with a JSON body; the answer. */
	HttpResponse<String> login(String user, String password) throws IOException, InterruptedException {
		return send(request("/api/session").header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}")));
	}

	/** The {@code Cookie} value of a successful login's session. */
	static String cookie(HttpResponse<String> login) {
		assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
		String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
		return setCookie.substring(0, setCookie.indexOf(';'));
	}

	/** A call with a session, as the UI makes it. */
	HttpResponse<String> withSession(String cookie, String method, String target, @Nullable String body)
			throws IOException, InterruptedException {
		return send(request(target).header("Cookie", cookie)
			.header("X-Requested-With", "XmlHttpRequest")
			.method(method, (body != null) ? BodyPublishers.ofString(body) : BodyPublishers.noBody()));
	}

	/** A call with HTTP Basic. */
	HttpResponse<String> withBasic(String user, String password, String method, String target)
			throws IOException, InterruptedException {
		return send(
				request(target).header("Authorization", basic(user, password)).method(method, BodyPublishers.noBody()));
	}

	HttpRequest.Builder request(String target) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.httpPort + target))
			.timeout(Duration.ofSeconds(60));
	}

	static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return HTTP.send(request.build(), BodyHandlers.ofString(StandardCharsets.UTF_8));
	}

	static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Runs lftp against Wharf's FTP server with one script.
	 * @param user the login name
	 * @param password the password (or an API token)
	 * @param commands lftp commands, run in order; the script ends with {@code bye}
	 */
	Result lftp(String user, String password, String... commands) throws IOException, InterruptedException {
		String lftp = Requirements.requireExecutable("lftp", "lftp").toString();
		List<String> script = new ArrayList<>(List.of("set net:max-retries 1", "set net:reconnect-interval-base 1",
				"set net:timeout 20", "set cmd:fail-exit yes"));
		script.addAll(List.of(commands));
		script.add("bye");
		return run(lftp, "-u", user + "," + password, "-p", Integer.toString(this.ftpPort), "-e",
				String.join("; ", script), "127.0.0.1");
	}

	/**
	 * Runs curl against Wharf's HTTP server, printing the status code last.
	 * @param target the path and query
	 * @param options such as {@code -u bot:pw -X PUT}
	 */
	Result curl(String target, String... options) throws IOException, InterruptedException {
		String curl = Requirements.requireExecutable("curl", "curl").toString();
		List<String> command = new ArrayList<>(List.of(curl, "-sS", "-D", "-", "-w", "\nstatus=%{http_code}"));
		command.addAll(List.of(options));
		command.add("http://127.0.0.1:" + this.httpPort + target);
		return run(command.toArray(String[]::new));
	}

	private Result run(String... command) throws IOException, InterruptedException {
		Processes.Result result = Processes.run(this.folder, List.of(command));
		return new Result(result.exit(), result.output());
	}

	/**
	 * What a client program did.
	 *
	 * @param exit its exit status
	 * @param output what it printed, errors included
	 */
	record Result(int exit, String output) {

		/** The HTTP status curl printed last. */
		int status() {
			int at = this.output.lastIndexOf("status=");
			return Integer.parseInt(this.output.substring(at + "status=".length()).trim());
		}

	}

}
