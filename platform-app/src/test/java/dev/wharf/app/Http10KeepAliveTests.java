package dev.wharf.app;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP/1.0 keep-alive over a raw socket, the way {@code ab -k} speaks it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class Http10KeepAliveTests {

	@TempDir
	static Path temp;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.memoryMount(registry, temp);
	}

	@LocalServerPort
	int port;

	@Test
	void keepAliveRequestsShareOneConnectionAndAreToldSo() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			for (int i = 0; i < 3; i++) {
				out.write("GET /actuator/health/liveness HTTP/1.0\r\nConnection: Keep-Alive\r\nHost: x\r\n\r\n"
					.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				Response response = Response.read(in);
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.headers()).containsEntry("connection", "keep-alive");
				assertThat(response.body()).contains("\"status\":\"UP\"");
			}
		}
	}

	/**
	 * The health endpoint finishes on a worker thread; Reactor Netty 1.3.7 then used to
	 * stop reading the connection within a few hundred back-to-back requests (see
	 * KeepAliveReadResumer).
	 */
	@ParameterizedTest
	@ValueSource(strings = { "HTTP/1.1", "HTTP/1.0" })
	void backToBackKeepAliveRequestsToAnEndpointFinishingOffTheEventLoopNeverStall(String version) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			byte[] request = ("GET /actuator/health HTTP/" + version.substring(5)
					+ "\r\nConnection: keep-alive\r\nHost: x\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			for (int i = 0; i < 2000; i++) {
				out.write(request);
				out.flush();
				assertThat(Response.read(in).status()).as("response %d", i).isEqualTo(200);
			}
		}
	}

	@Test
	void withoutKeepAliveTheServerCloses() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			InputStream in = new BufferedInputStream(socket.getInputStream());
			socket.getOutputStream()
				.write("GET /actuator/health/liveness HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			Response response = Response.read(in);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.headers()).doesNotContainEntry("connection", "keep-alive");
			assertThat(in.read()).isEqualTo(-1);
		}
	}

	record Response(int status, Map<String, String> headers, String body) {

		static Response read(InputStream in) throws IOException {
			String statusLine = line(in);
			int status = Integer.parseInt(statusLine.split(" ")[1]);
			Map<String, String> headers = new LinkedHashMap<>();
			for (String line = line(in); !line.isEmpty(); line = line(in)) {
				int colon = line.indexOf(':');
				headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
			}
			int length = Integer.parseInt(headers.get("content-length"));
			byte[] body = in.readNBytes(length);
			return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
		}

		private static String line(InputStream in) throws IOException {
			ByteArrayOutputStream line = new ByteArrayOutputStream();
			int b;
			while ((b = in.read()) != '\n') {
				if (b < 0) {
					throw new IOException("Connection closed mid-response");
				}
				if (b != '\r') {
					line.write(b);
				}
			}
			return line.toString(StandardCharsets.US_ASCII);
		}

	}

}
