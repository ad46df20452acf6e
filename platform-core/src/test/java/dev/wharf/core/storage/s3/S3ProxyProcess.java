package dev.wharf.core.storage.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.testsupport.FreePorts;
import dev.wharf.core.testsupport.Requirements;
import dev.wharf.core.testsupport.ServerProcess;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server, S3Proxy, as a separate process on 127.0.0.1 and a free port, started
 * by a test; its runnable jar is the one Maven copies into {@code target/s3proxy/}
 * (system property {@code wharf.s3proxy.jar}). It keeps objects in memory
 * ({@link Backend#TRANSIENT}) or as files in a folder ({@link Backend#FILESYSTEM}), and
 * can be killed and started again on the same port to see how Wharf copes (a filesystem
 * server keeps its objects). {@link #close()} kills it; a shutdown hook does too if the
 * test JVM ends first. Published in platform-core's test-jar, for every module's s3
 * tests.
 */
public final class S3ProxyProcess extends ServerProcess {

	/** The access key the server accepts. */
	public static final String ACCESS_KEY = "wharf-test-access";

	/** The secret key the server accepts. */
	public static final String SECRET_KEY = "wharf-test-secret-key";

	private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	private final Path jar;

	private final Path directory;

	private final Backend backend;

	private final int port;

	private @Nullable S3Client client;

	private S3ProxyProcess(Path jar, Path directory, Backend backend, int port) {
		super("S3Proxy");
		this.jar = jar;
		this.directory = directory;
		this.backend = backend;
		this.port = port;
	}

	/**
	 * Starts a server, failing (in CI) or skipping the test if its jar was not built.
	 * @param backend where it keeps objects
	 * @param directory a folder for its configuration, log and (filesystem) objects
	 * @return the running server
	 */
	public static S3ProxyProcess start(Backend backend, Path directory) throws IOException, InterruptedException {
		String configured = System.getProperty("wharf.s3proxy.jar");
		Path jar = (configured != null) ? Path.of(configured) : Path.of("target", "s3proxy", "s3proxy.jar");
		Requirements.require(Files.isRegularFile(jar),
				"S3Proxy's jar at " + jar + " (Maven copies it there: run the tests through ./mvnw)");
		Files.createDirectories(directory);
		S3ProxyProcess server = new S3ProxyProcess(jar, directory, backend, FreePorts.loopback());
		server.restart();
		return server;
	}

	/** Its port on 127.0.0.1. */
	public int port() {
		return this.port;
	}

	/** Its URL, as a mount's {@code endpoint}. */
	public URI endpoint() {
		return URI.create("http://127.0.0.1:" + this.port);
	}

	/**
	 * The folder that holds the buckets of a {@link Backend#FILESYSTEM} server, one
	 * folder each.
	 */
	public Path objects() {
		return this.directory.resolve("objects");
	}

	/**
	 * Starts it again on the same port, once killed; returns when it accepts connections.
	 */
	public void restart() throws IOException, InterruptedException {
		if (isRunning()) {
			return;
		}
		Files.createDirectories(objects());
		Path configuration = this.directory.resolve("s3proxy.conf");
		Files.writeString(configuration,
				String.join("\n", "s3proxy.endpoint=" + endpoint(), "s3proxy.authorization=aws-v2-or-v4",
						"s3proxy.identity=" + ACCESS_KEY, "s3proxy.credential=" + SECRET_KEY,
						"jclouds.provider=" + this.backend.provider, "jclouds.identity=" + ACCESS_KEY,
						"jclouds.credential=" + SECRET_KEY, "jclouds.filesystem.basedir=" + objects(), ""),
				StandardCharsets.UTF_8);
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Path log = this.directory.resolve("s3proxy.log");
		Process started = new ProcessBuilder(List.of(java.toString(), "-Xmx512m", "-XX:TieredStopAtLevel=1",
				"-Xshare:auto", "-jar", this.jar.toString(), "--properties", configuration.toString()))
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		awaitStart(started, START_TIMEOUT, listening(this.port), () -> "see " + log);
	}

	/**
	 * A client of its own, for tests to look behind Wharf's back (closed with the
	 * server).
	 * @return the client
	 */
	public synchronized S3Client client() {
		if (this.client == null) {
			this.client = client(endpoint());
		}
		return this.client;
	}

	/**
	 * A client of a test S3 server that accepts {@link #ACCESS_KEY}, with checksums only
	 * where S3 requires them.
	 * @param endpoint the server's URL
	 * @return a new client; the caller closes it
	 */
	static S3Client client(URI endpoint) {
		return S3Client.builder()
			.httpClientBuilder(AwsCrtHttpClient.builder())
			.endpointOverride(endpoint)
			.region(Region.US_EAST_1)
			.forcePathStyle(true)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
			.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
			.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
			.build();
	}

	/**
	 * Creates a bucket.
	 * @param bucket its name
	 */
	public void createBucket(String bucket) {
		client().createBucket(b -> b.bucket(bucket));
	}

	/**
	 * The properties of an {@code s3} mount on a bucket of this server, with a given part
	 * size.
	 * @param bucket the bucket
	 * @param prefix the folder in it, or {@code ""}
	 * @param partSize the upload part size
	 * @return the properties
	 */
	public S3StorageProperties properties(String bucket, String prefix, DataSize partSize) {
		return new S3StorageProperties(bucket, prefix, endpoint().toString(), "us-east-1", true, ACCESS_KEY, SECRET_KEY,
				Duration.ofSeconds(5), Duration.ofSeconds(30), 64, 3, partSize, 4, 100_000, Duration.ZERO);
	}

	/**
	 * The configuration of an {@code s3} mount on a bucket of this server, for an
	 * application's properties.
	 * @param mount the mount's name
	 * @param bucket the bucket
	 * @return the properties under {@code wharf.storage.mounts.<mount>}
	 */
	public Map<String, String> mountProperties(String mount, String bucket) {
		String prefix = "wharf.storage.mounts." + mount + ".";
		Map<String, String> properties = new HashMap<>();
		properties.put(prefix + "type", "s3");
		properties.put(prefix + "bucket", bucket);
		properties.put(prefix + "endpoint", endpoint().toString());
		properties.put(prefix + "region", "us-east-1");
		properties.put(prefix + "access-key", ACCESS_KEY);
		properties.put(prefix + "secret-key", SECRET_KEY);
		return properties;
	}

	@Override
	public void close() {
		super.close();
		synchronized (this) {
			if (this.client != null) {
				this.client.close();
				this.client = null;
			}
		}
	}

	/** Where the server keeps objects. */
	public enum Backend {

		/** In memory; gone when it is killed. */
		TRANSIENT("transient"),

		/** Files in a folder, one folder per bucket; kept across restarts. */
		FILESYSTEM("filesystem");

		private final String provider;

		Backend(String provider) {
			this.provider = provider;
		}

	}

}
