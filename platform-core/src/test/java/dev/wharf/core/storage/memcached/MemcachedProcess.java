package dev.wharf.core.storage.memcached;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.testsupport.FreePorts;
import dev.wharf.core.testsupport.Requirements;
import dev.wharf.core.testsupport.ServerProcess;

/**
 * A real {@code memcached} on 127.0.0.1 and a free port, started by a test (UDP off),
 * that can be killed and started again on the same port to see how clients cope.
 * {@link #close()} kills it; a shutdown hook does too if the test JVM ends first.
 * Published in platform-core's test-jar.
 */
public final class MemcachedProcess extends ServerProcess {

	private final Path executable;

	private final int port;

	private final int memoryMegabytes;

	private MemcachedProcess(Path executable, int port, int memoryMegabytes) {
		super("memcached");
		this.executable = executable;
		this.port = port;
		this.memoryMegabytes = memoryMegabytes;
	}

	/**
	 * Starts a memcached, failing (in CI) or skipping the test if the program is missing.
	 * @param memoryMegabytes its item memory ({@code -m})
	 * @return the running server
	 */
	public static MemcachedProcess start(int memoryMegabytes) throws IOException, InterruptedException {
		Path executable = Requirements.requireExecutable("memcached", "memcached");
		MemcachedProcess memcached = new MemcachedProcess(executable, FreePorts.loopback(), memoryMegabytes);
		memcached.restart();
		return memcached;
	}

	/** Its port on 127.0.0.1. */
	public int port() {
		return this.port;
	}

	/** {@code 127.0.0.1:port}, as a mount's {@code servers} entry. */
	public String address() {
		return "127.0.0.1:" + this.port;
	}

	/**
	 * Starts it again (empty) on the same port, once killed; returns when it accepts
	 * connections.
	 */
	public void restart() throws IOException, InterruptedException {
		if (isRunning()) {
			return;
		}
		List<String> command = new ArrayList<>(List.of(this.executable.toString(), "-l", "127.0.0.1", "-p",
				Integer.toString(this.port), "-U", "0", "-m", Integer.toString(this.memoryMegabytes), "-t", "2"));
		if ("root".equals(System.getProperty("user.name"))) {
			command.addAll(List.of("-u", "root"));
		}
		Process started = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		awaitStart(started, Duration.ofSeconds(20), listening(this.port), () -> "port " + this.port);
	}

	/**
	 * Its {@code stats}, over the text protocol.
	 * @return every statistic by name
	 */
	public Map<String, String> stats() throws IOException {
		Map<String, String> stats = new HashMap<>();
		for (String line : talk("stats\r\n".getBytes(StandardCharsets.US_ASCII), "END")) {
			String[] parts = line.split(" ");
			if (parts.length == 3 && parts[0].equals("STAT")) {
				stats.put(parts[1], parts[2]);
			}
		}
		return stats;
	}

	/** How many items it holds now. */
	public long items() throws IOException {
		return Long.parseLong(stats().getOrDefault("curr_items", "0"));
	}

	/**
	 * Stores an item behind any client's back, over the text protocol.
	 * @param key the key
	 * @param flags the item's flags (spymemcached's default transcoder reads 1 as
	 * "serialised Java object")
	 * @param value the value
	 */
	public void set(String key, int flags, byte[] value) throws IOException {
		byte[] header = ("set " + key + " " + flags + " 0 " + value.length + "\r\n")
			.getBytes(StandardCharsets.US_ASCII);
		byte[] request = new byte[header.length + value.length + 2];
		System.arraycopy(header, 0, request, 0, header.length);
		System.arraycopy(value, 0, request, header.length, value.length);
		request[request.length - 2] = '\r';
		request[request.length - 1] = '\n';
		List<String> reply = talk(request, "STORED");
		if (!reply.contains("STORED")) {
			throw new IOException("memcached did not store " + key + ": " + reply);
		}
	}

	/**
	 * Deletes an item behind any client's back, as an eviction would.
	 * @param key the key
	 * @return whether it existed
	 */
	public boolean delete(String key) throws IOException {
		return talk(("delete " + key + "\r\n").getBytes(StandardCharsets.US_ASCII), "DELETED", "NOT_FOUND")
			.contains("DELETED");
	}

	private List<String> talk(byte[] request, String... last) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request);
			socket.getOutputStream().flush();
			BufferedReader reader = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			List<String> lines = new ArrayList<>();
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				lines.add(line);
				if (List.of(last).contains(line) || line.startsWith("ERROR") || line.startsWith("CLIENT_ERROR")
						|| line.startsWith("SERVER_ERROR")) {
					break;
				}
			}
			return lines;
		}
	}

}
