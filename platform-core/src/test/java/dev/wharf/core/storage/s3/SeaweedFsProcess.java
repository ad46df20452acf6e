package dev.wharf.core.storage.s3;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.wharf.core.testsupport.Processes;
import dev.wharf.core.testsupport.Requirements;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real SeaweedFS ({@code weed server -s3}: master, volume server, filer and S3 gateway
 * in one process) on 127.0.0.1 and free ports, for the opt-in {@code -Pseaweedfs} tests.
 * The {@code weed} program is the one the profile builds from the Go module proxy (system
 * property {@code wharf.seaweedfs.weed}, see {@code scripts/seaweedfs-build.sh}).
 * {@link #close()} stops it; a shutdown hook does too if the test JVM ends first.
 */
public final class SeaweedFsProcess implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private final Process process;

	private final int s3Port;

	private final Path directory;

	private final Thread killer;

	private @Nullable S3Client client;

	private SeaweedFsProcess(Process process, int s3Port, Path directory) {
		this.process = process;
		this.s3Port = s3Port;
		this.directory = directory;
		this.killer = new Thread(this::stop, "seaweedfs-killer");
	}

	/**
	 * Starts a server with one identity ({@link S3ProxyProcess#ACCESS_KEY}) and waits
	 * until it creates a bucket.
	 * @param directory a folder for its data, configuration and log
	 * @param bucket the bucket to create
	 * @return the running server
	 */
	public static SeaweedFsProcess start(Path directory, String bucket) throws IOException, InterruptedException {
		String configured = System.getProperty("wharf.seaweedfs.weed");
		Path weed = (configured != null) ? Path.of(configured) : null;
		Requirements.require(weed != null && Files.isExecutable(weed),
				"SeaweedFS's weed (./mvnw -Pseaweedfs builds it with Go from the Go module proxy)");
		Files.createDirectories(directory.resolve("data"));
		Path identities = directory.resolve("s3.json");
		Files.writeString(identities,
				"{\"identities\":[{\"name\":\"wharf\",\"credentials\":[{\"accessKey\":\"" + S3ProxyProcess.ACCESS_KEY
						+ "\",\"secretKey\":\"" + S3ProxyProcess.SECRET_KEY
						+ "\"}],\"actions\":[\"Admin\",\"Read\",\"Write\",\"List\",\"Tagging\"]}]}",
				StandardCharsets.UTF_8);
		int[] ports = freePorts(8);
		List<String> command = new ArrayList<>(List.of(weed.toString(), "server", "-dir=" + directory.resolve("data"),
				"-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-master.port=" + ports[0], "-master.port.grpc=" + ports[1],
				"-volume.port=" + ports[2], "-volume.port.grpc=" + ports[3], "-filer.port=" + ports[4],
				"-filer.port.grpc=" + ports[5], "-s3", "-s3.port=" + ports[6], "-s3.port.grpc=" + ports[7],
				"-s3.port.iceberg=0", "-s3.port.lance=0", "-s3.config=" + identities, "-master.volumeSizeLimitMB=256",
				"-volume.max=0"));
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("weed.log").toFile()))
			.start();
		SeaweedFsProcess server = new SeaweedFsProcess(process, ports[6], directory);
		Runtime.getRuntime().addShutdownHook(server.killer);
		AtomicReference<RuntimeException> last = new AtomicReference<>();
		if (Processes.awaitReady(process, START_TIMEOUT, Duration.ofMillis(250), () -> {
			try {
				server.client().createBucket(b -> b.bucket(bucket));
				return true;
			}
			catch (RuntimeException notYet) {
				last.set(notYet);
				return false;
			}
		})) {
			return server;
		}
		if (!process.isAlive()) {
			throw new IOException("weed exited with " + process.exitValue() + "; see " + directory.resolve("weed.log"));
		}
		server.close();
		throw new IOException("SeaweedFS did not create a bucket within " + START_TIMEOUT, last.get());
	}

	/** The S3 gateway's URL. */
	public URI endpoint() {
		return URI.create("http://127.0.0.1:" + this.s3Port);
	}

	/** The folder of its data and log. */
	public Path directory() {
		return this.directory;
	}

	/**
	 * A client of its own, for tests to look behind Wharf's back (closed with the
	 * server).
	 */
	public synchronized S3Client client() {
		if (this.client == null) {
			this.client = S3ProxyProcess.client(endpoint());
		}
		return this.client;
	}

	/**
	 * The properties of an {@code s3} mount on a bucket of this server.
	 * @param bucket the bucket
	 * @param prefix the folder in it, or {@code ""}
	 * @param partSize the upload part size
	 * @return the properties
	 */
	public S3StorageProperties properties(String bucket, String prefix, DataSize partSize) {
		return new S3StorageProperties(bucket, prefix, endpoint().toString(), "us-east-1", true,
				S3ProxyProcess.ACCESS_KEY, S3ProxyProcess.SECRET_KEY, Duration.ofSeconds(5), Duration.ofSeconds(30), 64,
				3, partSize, 4, 1_000_000, Duration.ZERO);
	}

	private void stop() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		synchronized (this) {
			if (this.client != null) {
				this.client.close();
				this.client = null;
			}
		}
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.killer);
		}
		catch (IllegalStateException shuttingDown) {
			// The hook runs anyway.
		}
	}

	private static int[] freePorts(int count) throws IOException {
		List<ServerSocket> sockets = new ArrayList<>();
		try {
			int[] ports = new int[count];
			for (int i = 0; i < count; i++) {
				ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				sockets.add(socket);
				ports[i] = socket.getLocalPort();
			}
			return ports;
		}
		finally {
			for (ServerSocket socket : sockets) {
				socket.close();
			}
		}
	}

}
