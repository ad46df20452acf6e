package dev.wharf.core.testsupport;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;

/**
 * A real {@code redis-server} on 127.0.0.1 and a free port, started by a test, with its
 * data in a folder of its own and the append-only file on: {@link #stop()} (SIGTERM) and
 * {@link #start()} bring it back on the same port with its data, as a restarted Redis
 * with persistence would; {@link #kill()} (SIGKILL) is a crash. {@link #command} talks to
 * it directly (RESP), to look at the keys Wharf wrote behind Wharf's back.
 * {@link #close()} stops it and removes its folder; a shutdown hook kills it if the test
 * JVM ends first. Published in platform-core's test-jar.
 *
 * <p>
 * One server per test class:
 * {@code @RegisterExtension static final RedisProcess.PerClass redis = new
 * RedisProcess.PerClass();}. Not thread-safe: one test drives it.
 */
public final class RedisProcess extends ServerProcess {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final Path executable;

	private final Path directory;

	private final int port;

	private RedisProcess(Path executable, Path directory, int port) {
		super("redis-server");
		this.executable = executable;
		this.directory = directory;
		this.port = port;
	}

	/**
	 * Starts a Redis, failing (in CI) or skipping the test if {@code redis-server} is
	 * missing.
	 * @return the running server
	 */
	public static RedisProcess begin() throws IOException, InterruptedException {
		Path executable = Requirements.requireExecutable("redis-server", "redis-server");
		RedisProcess redis = new RedisProcess(executable, Files.createTempDirectory("wharf-redis"),
				FreePorts.loopback());
		redis.start();
		return redis;
	}

	/** Its port on 127.0.0.1. */
	public int port() {
		return this.port;
	}

	/** {@code redis://127.0.0.1:port}, for {@code spring.data.redis.url}. */
	public String url() {
		return "redis://127.0.0.1:" + this.port;
	}

	/**
	 * Starts it (again, with the data it saved), unless it runs; returns when it answers
	 * {@code PING}.
	 */
	public void start() throws IOException, InterruptedException {
		if (isRunning()) {
			return;
		}
		Path log = this.directory.resolve("redis.log");
		Process started = new ProcessBuilder(this.executable.toString(), "--port", Integer.toString(this.port),
				"--bind", "127.0.0.1", "--dir", this.directory.toString(), "--appendonly", "yes", "--appendfsync",
				"everysec", "--save", "", "--daemonize", "no", "--protected-mode", "yes", "--logfile", log.toString())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		// Until it answers, it is not listening yet or still loading its data.
		awaitStart(started, START_TIMEOUT, () -> "PONG".equals(command("PING")), () -> readQuietly(log));
	}

	/**
	 * Sends one command and reads the reply.
	 * @param arguments the command and its arguments, such as {@code "ZCARD", "wharf:x"}
	 * @return a {@code String} (simple or bulk string), {@code Long}, {@code List} of
	 * those, or {@code null}
	 * @throws IOException if it cannot be reached or answers with an error
	 */
	public @Nullable Object command(String... arguments) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 1000);
			socket.setSoTimeout(10_000);
			ByteArrayOutputStream request = new ByteArrayOutputStream();
			request.writeBytes(("*" + arguments.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
			for (String argument : arguments) {
				byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
				request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
				request.writeBytes(bytes);
				request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
			}
			OutputStream out = socket.getOutputStream();
			out.write(request.toByteArray());
			out.flush();
			return reply(new BufferedInputStream(socket.getInputStream()));
		}
	}

	/**
	 * The keys that match a pattern, sorted.
	 * @param pattern such as {@code wharf:*}
	 * @return the keys
	 */
	@SuppressWarnings("unchecked")
	public List<String> keys(String pattern) throws IOException {
		List<String> keys = new ArrayList<>((List<String>) command("KEYS", pattern));
		keys.sort(Comparator.naturalOrder());
		return keys;
	}

	/** Removes every key, so test methods start from nothing. */
	public void flushAll() throws IOException {
		command("FLUSHALL");
	}

	private static @Nullable Object reply(InputStream in) throws IOException {
		int type = in.read();
		String line = line(in);
		return switch (type) {
			case '+' -> line;
			case '-' -> throw new IOException("Redis answered: " + line);
			case ':' -> Long.parseLong(line);
			case '$' -> {
				int length = Integer.parseInt(line);
				if (length < 0) {
					yield null;
				}
				byte[] bytes = in.readNBytes(length);
				line(in);
				yield new String(bytes, StandardCharsets.UTF_8);
			}
			case '*' -> {
				int count = Integer.parseInt(line);
				if (count < 0) {
					yield null;
				}
				List<Object> items = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					items.add(reply(in));
				}
				yield items;
			}
			default -> throw new IOException("Not a Redis reply: " + (char) type + line);
		};
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int c = in.read(); c != '\n'; c = in.read()) {
			if (c < 0) {
				throw new IOException("Connection closed in a reply");
			}
			if (c != '\r') {
				line.write(c);
			}
		}
		return line.toString(StandardCharsets.UTF_8);
	}

	/** Stops it and removes its data. */
	@Override
	public void close() {
		super.close();
		try {
			FileSystemUtils.deleteRecursively(this.directory);
		}
		catch (IOException ex) {
			// A temporary folder; the system cleans it up eventually.
		}
	}

	/**
	 * Starts one Redis before a test class and stops it after:
	 * {@code @RegisterExtension static final RedisProcess.PerClass redis = new RedisProcess.PerClass();}.
	 */
	public static final class PerClass extends PerClassServer<RedisProcess> {

		/** Makes the extension. */
		public PerClass() {
			super(RedisProcess::begin);
		}

	}

}
