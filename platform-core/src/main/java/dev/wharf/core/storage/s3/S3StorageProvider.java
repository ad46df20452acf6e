package dev.wharf.core.storage.s3;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.Executor;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.StorageProvider;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Makes {@code s3} mounts ({@link S3StorageProperties}): an {@link S3AsyncClient} on the
 * CRT HTTP client per mount ({@link S3Clients}), with its own small callback pool, and
 * for downloads a Reactor Netty client with its own connections and event loops
 * ({@link S3ObjectStreams}). Nothing is sent at start-up except the sweep of stale
 * multipart uploads, which runs in the background: a server that cannot be reached does
 * not stop Wharf, the mount reports itself down and works once the server answers. This
 * class names no other type of the AWS SDK, so that creating it (as every application
 * with the SDK on its class path does) loads none of the SDK.
 */
public final class S3StorageProvider implements StorageProvider {

	/** The mount type. */
	public static final String TYPE = "s3";

	private static final Log logger = LogFactory.getLog(S3StorageProvider.class);

	private final Clock clock;

	/** A provider on the system clock. */
	public S3StorageProvider() {
		this(Clock.systemUTC());
	}

	/**
	 * A provider whose start-up sweep tells the age of uploads by a given clock.
	 * @param clock the clock
	 */
	S3StorageProvider(Clock clock) {
		this.clock = clock;
	}

	@Override
	public String type() {
		return TYPE;
	}

	@Override
	public Storage create(MountDefinition definition) {
		S3StorageProperties properties = definition.bind(S3StorageProperties.class);
		S3Storage storage = create(definition.name(), properties, S3Storage.Limits.of(properties));
		if (!properties.staleUploadAge().isZero()) {
			storage.abortStaleUploads(properties.staleUploadAge(), this.clock).subscribe(count -> {
				if (count > 0) {
					logger.info("Mount '" + definition.name() + "': aborted " + count
							+ " stale multipart uploads older than " + properties.staleUploadAge());
				}
			}, error -> logger.warn("Mount '" + definition.name() + "': could not sweep stale multipart uploads: "
					+ error.getMessage()));
		}
		return storage;
	}

	/**
	 * Makes a mount's storage without the start-up sweep.
	 * @param mount the mount's name
	 * @param properties its properties
	 * @param limits part sizes and counts (tests lower S3's own)
	 * @return the storage
	 */
	static S3Storage create(String mount, S3StorageProperties properties, S3Storage.Limits limits) {
		int threads = Math.max(4, Runtime.getRuntime().availableProcessors());
		BlockingScheduler callbacks = BlockingScheduler.create("wharf-s3-" + mount, threads, 100_000);
		try {
			Executor completions = callbacks::schedule;
			// The properties refuse a missing bucket.
			String bucket = Objects.requireNonNull(properties.bucket(), "An s3 mount without a bucket");
			S3ObjectStreams streams = S3Clients.streams(mount, bucket, properties, callbacks);
			try {
				S3AsyncClient client = S3Clients.client(properties, completions);
				return new S3Storage(mount, bucket, properties.keyPrefix(), client, streams, callbacks, limits);
			}
			catch (RuntimeException ex) {
				streams.close();
				throw ex;
			}
		}
		catch (RuntimeException ex) {
			callbacks.dispose();
			throw ex;
		}
	}

}
