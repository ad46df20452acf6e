package dev.wharf.core.storage.s3;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.StorageProvider;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.SdkAdvancedAsyncClientOption;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;

/**
 * Makes {@code s3} mounts ({@link S3StorageProperties}): an {@link S3AsyncClient} on the CRT HTTP client per
 * mount, with its own small callback pool. Nothing is sent at start-up except the sweep of stale multipart
 * uploads, which runs in the background: a server that cannot be reached does not stop Wharf, the mount
 * reports itself down and works once the server answers.
 */
public final class S3StorageProvider implements StorageProvider {

	/** The mount type. */
	public static final String TYPE = "s3";

	/** The region when none is configured or found. */
	private static final Region FALLBACK_REGION = Region.US_EAST_1;

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
			storage.abortStaleUploads(properties.staleUploadAge(), this.clock)
				.subscribe(count -> {
					if (count > 0) {
						logger.info("Mount '" + definition.name() + "': aborted " + count
								+ " stale multipart uploads older than " + properties.staleUploadAge());
					}
				}, error -> logger.warn("Mount '" + definition.name()
						+ "': could not sweep stale multipart uploads: " + error.getMessage()));
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
			S3AsyncClient client = client(properties, completions);
			// The properties refuse a missing bucket.
			String bucket = Objects.requireNonNull(properties.bucket(), "An s3 mount without a bucket");
			return new S3Storage(mount, bucket, properties.keyPrefix(), client, callbacks, limits);
		}
		catch (RuntimeException ex) {
			callbacks.dispose();
			throw ex;
		}
	}

	private static S3AsyncClient client(S3StorageProperties properties, Executor completions) {
		S3AsyncClientBuilder builder = S3AsyncClient.builder()
			.httpClientBuilder(AwsCrtAsyncHttpClient.builder()
				.maxConcurrency(properties.maxConnections())
				.connectionTimeout(properties.connectTimeout())
				.connectionAcquisitionTimeout(properties.readTimeout())
				// A response that stalls below one byte per second for read-timeout fails.
				.connectionHealthConfiguration(health -> health.minimumThroughputInBps(1L)
					.minimumThroughputTimeout(properties.readTimeout())))
			.credentialsProvider(credentials(properties))
			.forcePathStyle(properties.effectivePathStyle())
			.asyncConfiguration(async -> async.advancedOption(SdkAdvancedAsyncClientOption.FUTURE_COMPLETION_EXECUTOR,
					completions))
			.overrideConfiguration(override -> override.retryStrategy(AwsRetryStrategy.standardRetryStrategy()
				.toBuilder()
				.maxAttempts(properties.maxAttempts())
				.backoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(20)))
				.throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(500), Duration.ofSeconds(20)))
				.build()));
		if (properties.endpointUri() != null) {
			// Compatible servers often lack the newer checksums; send and check them only where S3 requires them.
			builder.endpointOverride(properties.endpointUri())
				.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
				.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
				// Where S3 requires a checksum (batch deletes), many compatible servers want Content-MD5.
				.addPlugin(LegacyMd5Plugin.create());
		}
		if (properties.region() != null && !properties.region().isEmpty()) {
			builder.region(Region.of(properties.region()));
		}
		else {
			builder.region(defaultRegion()).crossRegionAccessEnabled(properties.endpointUri() == null);
		}
		return builder.build();
	}

	private static AwsCredentialsProvider credentials(S3StorageProperties properties) {
		if (properties.hasStaticCredentials()) {
			return StaticCredentialsProvider.create(AwsBasicCredentials.create(properties.accessKey(),
					properties.secretKey()));
		}
		return DefaultCredentialsProvider.builder().build();
	}

	private static Region defaultRegion() {
		try {
			return new DefaultAwsRegionProviderChain().getRegion();
		}
		catch (SdkClientException none) {
			return FALLBACK_REGION;
		}
	}

}
