package dev.wharf.app.hostile;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections that connect and send nothing, held against the whole application on
 * 127.0.0.1: meanwhile the server must serve other clients, and the idle timeout must
 * close every one of them. Its own server, with a 15 s idle timeout, long enough to open
 * them all on a busy machine.
 * <p>
 * {@code ./mvnw verify} holds 50, enough for the behaviour. The soak run ({@code -Psoak},
 * which {@code scripts/soak.sh} runs) holds up to 10,000: as many as the process's
 * descriptor limit allows with room to spare (client and server share this JVM, so each
 * costs two descriptors; nothing is raised system-wide), and checks that the heap after a
 * collection grows by a small, bounded amount per connection (no buffer is held for a
 * connection that sent nothing). That needs thousands of sockets and collections within
 * seconds, more than a build on a shared machine should ask for.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class IdleConnectionsTests {

	private static final Log logger = LogFactory.getLog(IdleConnectionsTests.class);

	/** What {@code ./mvnw verify} holds. */
	private static final int FEW = 50;

	/** What the soak run holds at most. */
	private static final int MOST = 10_000;

	private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(15);

	/**
	 * Heap per held connection, both ends counted; measured ≈ 1–3 KB
	 * (docs/reliability/hostile-http.md).
	 */
	private static final long MOST_HEAP_PER_CONNECTION = 16 * 1024;

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.memoryMount(registry, temp);
		registry.add("server.netty.idle-timeout", () -> IDLE_TIMEOUT.toMillis() + "ms");
	}

	@Test
	void idleConnectionsDoNotStopOthersAndAreClosedByTheIdleTimeout() throws Exception {
		serve();
		hold(FEW, null);
	}

	@Test
	@Tag("soak")
	void manyIdleConnectionsCostLittleDoNotStopOthersAndAreClosedByTheIdleTimeout() throws Exception {
		int count = affordableConnections();
		assertThat(count).as("descriptors for at least 1,000 connections").isGreaterThanOrEqualTo(1000);
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		serve();
		long heapBefore = heapAfterGc(memory);
		hold(count, () -> {
			long heapHeld = heapAfterGc(memory);
			long perConnection = Math.max(0, heapHeld - heapBefore) / count;
			logger.info(count + " idle connections (descriptor limit " + descriptorLimit() + "): heap after GC "
					+ (heapBefore >> 20) + " MB before, " + (heapHeld >> 20) + " MB with them: " + perConnection
					+ " bytes per connection, both ends");
			assertThat(perConnection).isLessThan(MOST_HEAP_PER_CONNECTION);
		});
	}

	/**
	 * Opens idle connections, checks that others are still served and what the test adds,
	 * and waits until the server has closed every one for its idle timeout, and not
	 * sooner.
	 */
	private void hold(int count, @Nullable WhileHeld whileHeld) throws Exception {
		List<SocketChannel> idle = new ArrayList<>(count);
		try (Selector selector = Selector.open()) {
			long start = System.nanoTime();
			InetSocketAddress server = new InetSocketAddress("127.0.0.1", this.port);
			for (int i = 0; i < count; i++) {
				SocketChannel channel = SocketChannel.open(server);
				channel.configureBlocking(false);
				channel.register(selector, SelectionKey.OP_READ);
				idle.add(channel);
			}
			logger.info(count + " idle connections opened in " + Duration.ofNanos(System.nanoTime() - start).toMillis()
					+ " ms");
			serve();
			if (whileHeld != null) {
				whileHeld.check();
			}
			Duration measured = Duration.ofNanos(System.nanoTime() - start);
			assertThat(measured).as("all were open when checked (shorter than the idle timeout)")
				.isLessThan(IDLE_TIMEOUT);
			// Every one is closed by the server once idle for the timeout (bounded wait).
			int closed = awaitClosed(selector, count, IDLE_TIMEOUT.plus(RawHttp.PATIENCE).plus(RawHttp.PATIENCE));
			Duration closing = Duration.ofNanos(System.nanoTime() - start);
			logger.info(closed + " of " + count + " closed by the server after " + closing.toMillis() + " ms");
			assertThat(closed).isEqualTo(count);
			assertThat(closing).isGreaterThanOrEqualTo(IDLE_TIMEOUT);
		}
		finally {
			for (SocketChannel channel : idle) {
				channel.close();
			}
		}
		serve();
	}

	/**
	 * Counts connections the server closes (end of stream or reset), until all are or the
	 * time is up.
	 */
	private static int awaitClosed(Selector selector, int count, Duration within) throws IOException {
		long deadline = System.nanoTime() + within.toNanos();
		ByteBuffer sink = ByteBuffer.allocate(1024);
		int closed = 0;
		while (closed < count && System.nanoTime() < deadline) {
			selector.select(1000);
			for (SelectionKey key : selector.selectedKeys()) {
				SocketChannel channel = (SocketChannel) key.channel();
				int read;
				try {
					sink.clear();
					read = channel.read(sink);
				}
				catch (IOException reset) {
					read = -1;
				}
				if (read < 0) {
					key.cancel();
					closed++;
				}
			}
			selector.selectedKeys().clear();
		}
		return closed;
	}

	private void serve() throws IOException {
		RawHttp.Response health = RawHttp.exchange(this.port,
				"GET /actuator/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		assertThat(health.status()).isEqualTo(200);
		RawHttp.Response session = RawHttp.exchange(this.port,
				"GET /api/session HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		assertThat(session.status()).isEqualTo(401);
	}

	/**
	 * The least heap in use after three collections, each given a moment to finish its
	 * concurrent work.
	 */
	private static long heapAfterGc(MemoryMXBean memory) throws InterruptedException {
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			memory.gc();
			// Not a wait for a condition: the collector's concurrent phases settle, there
			// is nothing to poll.
			Thread.sleep(100);
			least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
		}
		return least;
	}

	/** What a test checks while the idle connections are held. */
	@FunctionalInterface
	private interface WhileHeld {

		void check() throws Exception;

	}

	/**
	 * Connections this process can hold: two descriptors each, leaving 2,000 for
	 * everything else.
	 */
	private static int affordableConnections() throws IOException {
		long open;
		try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
			open = descriptors.count();
		}
		return (int) Math.min(MOST, (descriptorLimit() - open - 2000) / 2);
	}

	private static long descriptorLimit() {
		return ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
	}

}
