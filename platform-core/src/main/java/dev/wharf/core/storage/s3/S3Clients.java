package dev.wharf.core.storage.s3;

import java.time.Duration;
import java.util.concurrent.Executor;

import reactor.core.scheduler.Scheduler;
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
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Builds the AWS SDK's clients for {@link S3StorageProvider}. Kept apart from the
 * provider, which Spring creates and introspects in every application that has the SDK on
 * its class path: the SDK's classes (regions, credentials, builders, the CRT client) then
 * load only when an {@code s3} mount is made, not in every configuration without one.
 * Stateless; safe from any thread.
 */
final class S3Clients {

	/** The region when none is configured or found. */
	private static final Region FALLBACK_REGION = Region.US_EAST_1;

	/** The shortest time the CRT measures a connection's throughput over. */
	private static final Duration MIN_THROUGHPUT_TIMEOUT = Duration.ofSeconds(2);

	private S3Clients() {
	}

	/**
	 * A client for a mount.
	 * @param properties the mount's properties
	 * @param completions where the SDK completes its futures
	 * @return the client
	 */
	static S3AsyncClient client(S3StorageProperties properties, Executor completions) {
		S3AsyncClientBuilder builder = S3AsyncClient.builder()
			.httpClientBuilder(AwsCrtAsyncHttpClient.builder()
				.maxConcurrency(properties.maxConnections())
				.connectionTimeout(properties.connectTimeout())
				.connectionAcquisitionTimeout(properties.readTimeout())
				// A response that stalls below one byte per second for read-timeout
				// fails (the CRT counts whole seconds, at least two; downloads, which
				// S3ObjectStreams makes, keep the exact time-out).
				.connectionHealthConfiguration(health -> health.minimumThroughputInBps(1L)
					.minimumThroughputTimeout(max(properties.readTimeout(), MIN_THROUGHPUT_TIMEOUT))))
			.credentialsProvider(credentials(properties))
			.forcePathStyle(properties.effectivePathStyle())
			.asyncConfiguration(
					async -> async.advancedOption(SdkAdvancedAsyncClientOption.FUTURE_COMPLETION_EXECUTOR, completions))
			.overrideConfiguration(override -> override.retryStrategy(AwsRetryStrategy.standardRetryStrategy()
				.toBuilder()
				.maxAttempts(properties.maxAttempts())
				.backoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(20)))
				.throttlingBackoffStrategy(
						BackoffStrategy.exponentialDelay(Duration.ofMillis(500), Duration.ofSeconds(20)))
				.build()));
		if (properties.endpointUri() != null) {
			// Compatible servers often lack the newer checksums; send and check them only
			// where S3 requires them.
			builder.endpointOverride(properties.endpointUri())
				.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
				.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
				// Where S3 requires a checksum (batch deletes), many compatible servers
				// want Content-MD5.
				.addPlugin(LegacyMd5Plugin.create());
		}
		boolean configured = properties.region() != null && !properties.region().isEmpty();
		builder.region(region(properties)).crossRegionAccessEnabled(!configured && properties.endpointUri() == null);
		return builder.build();
	}

	/**
	 * A mount's region: the configured one, else the AWS default region chain's, else
	 * {@code us-east-1}.
	 * @param properties the mount's properties
	 * @return the region
	 */
	static Region region(S3StorageProperties properties) {
		String region = properties.region();
		return (region != null && !region.isEmpty()) ? Region.of(region) : defaultRegion();
	}

	/**
	 * A mount's downloads and streamed uploads ({@link S3ObjectStreams}).
	 * @param mount the mount's name
	 * @param bucket the bucket
	 * @param properties the mount's properties
	 * @param callbacks the mount's callback pool
	 * @return the streams
	 */
	static S3ObjectStreams streams(String mount, String bucket, S3StorageProperties properties, Scheduler callbacks) {
		boolean configured = properties.region() != null && !properties.region().isEmpty();
		return S3ObjectStreams.create(mount, bucket, properties, region -> presigner(properties, region),
				region(properties), !configured && properties.endpointUri() == null, callbacks);
	}

	/**
	 * A presigner for a mount's downloads ({@link S3ObjectStreams}): its endpoint,
	 * addressing and credentials, as the mount's client has them.
	 * @param properties the mount's properties
	 * @param region the region to sign for
	 * @return the presigner
	 */
	static S3Presigner presigner(S3StorageProperties properties, Region region) {
		S3Presigner.Builder builder = S3Presigner.builder()
			.credentialsProvider(credentials(properties))
			.serviceConfiguration(S3Configuration.builder()
				.pathStyleAccessEnabled(properties.effectivePathStyle())
				.checksumValidationEnabled(false)
				.build())
			.region(region);
		if (properties.endpointUri() != null) {
			builder.endpointOverride(properties.endpointUri());
		}
		return builder.build();
	}

	private static AwsCredentialsProvider credentials(S3StorageProperties properties) {
		if (properties.hasStaticCredentials()) {
			return StaticCredentialsProvider
				.create(AwsBasicCredentials.create(properties.accessKey(), properties.secretKey()));
		}
		return DefaultCredentialsProvider.builder().build();
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
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
