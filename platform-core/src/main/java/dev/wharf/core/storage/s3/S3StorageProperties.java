package dev.wharf.core.storage.s3;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.regex.Pattern;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Properties of an {@code s3} mount: a bucket, or a folder in it, on Amazon S3 or an
 * S3-compatible server.
 *
 * @param bucket the bucket's name
 * @param prefix a folder inside the bucket that is the mount's root ({@code team/files});
 * empty for the whole bucket. Nothing outside it is reachable
 * @param endpoint the server's URL for an S3-compatible server
 * ({@code http://127.0.0.1:9000}); empty for Amazon S3. With an endpoint, request and
 * response checksums are only sent and checked where S3 requires them, since many
 * compatible servers do not support the newer ones
 * @param region the bucket's region; empty means the AWS default region chain
 * ({@code AWS_REGION}, the profile), else {@code us-east-1}, with requests to a bucket in
 * another region redirected to it
 * @param pathStyle address the bucket in the URL's path ({@code http://host/bucket/key})
 * instead of its host name; empty means yes with an {@code endpoint} (most compatible
 * servers need it) and no for Amazon S3
 * @param accessKey the access key id; with {@code secret-key}. Both empty means the AWS
 * default credentials chain (environment, profile, web identity, container or instance
 * role)
 * @param secretKey the secret access key
 * @param connectTimeout how long opening a connection may take
 * @param readTimeout a request whose response sends no byte for this long fails as
 * unavailable
 * @param maxConnections most connections to the server at once; requests beyond wait for
 * one (up to {@code read-timeout}). Downloads have a pool of their own of this size, so a
 * mount opens at most twice as many
 * @param maxAttempts how often a request that failed for a reason worth retrying
 * (throttling such as {@code SlowDown}, a 5xx answer, a broken connection) is tried in
 * all, with back-off
 * @param partSize uploads are sent in parts of this size (a file that fits one part is
 * one request); 5MB to 5GB. Memory per upload is at most about {@code part-size} times
 * ({@code parts-in-flight} + 1)
 * @param partsInFlight parts of one upload sent at once, 1 to 64
 * @param maxListEntries a folder with more entries than this fails to list instead of
 * being read without end
 * @param staleUploadAge at start-up, multipart uploads under the prefix begun longer ago
 * than this are aborted (they are what a crash left behind; S3 keeps and bills them until
 * aborted); {@code 0} switches the sweep off
 */
public record S3StorageProperties(@Nullable String bucket, @DefaultValue("") String prefix, @Nullable String endpoint,
		@Nullable String region, @Nullable Boolean pathStyle, @Nullable String accessKey, @Nullable String secretKey,
		@DefaultValue("10s") Duration connectTimeout, @DefaultValue("60s") Duration readTimeout,
		@DefaultValue("64") int maxConnections, @DefaultValue("3") int maxAttempts,
		@DefaultValue("8MB") DataSize partSize, @DefaultValue("4") int partsInFlight,
		@DefaultValue("100000") int maxListEntries, @DefaultValue("24h") Duration staleUploadAge) {

	/** S3's smallest part, except the last one of an upload. */
	static final long MIN_PART_SIZE = 5L * 1024 * 1024;

	/** S3's largest part and largest single copy. */
	static final long MAX_PART_SIZE = 5L * 1024 * 1024 * 1024;

	/**
	 * Bucket names as S3 allows them (3 to 63 lower-case letters, digits, dots and
	 * hyphens).
	 */
	private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

	private static final Pattern REGION = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

	private static final Duration LONGEST_TIMEOUT = Duration.ofHours(1);

	public S3StorageProperties {
		if (bucket == null || bucket.isBlank()) {
			throw new InvalidConfigurationException("bucket", null, "an s3 mount needs a bucket");
		}
		if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
			throw new InvalidConfigurationException("bucket", bucket,
					"must be 3 to 63 lower-case letters, digits, '.' or '-', starting and ending with a letter or digit");
		}
		prefix = checkPrefix(prefix);
		if (endpoint != null && !endpoint.isEmpty()) {
			checkEndpoint(endpoint);
		}
		if (region != null && !region.isEmpty() && !REGION.matcher(region).matches()) {
			throw new InvalidConfigurationException("region", region,
					"must be a region name such as eu-west-1 (lower-case letters, digits and '-')");
		}
		boolean hasAccessKey = accessKey != null && !accessKey.isEmpty();
		boolean hasSecretKey = secretKey != null && !secretKey.isEmpty();
		if (hasAccessKey != hasSecretKey) {
			throw new InvalidConfigurationException(hasAccessKey ? "secret-key" : "access-key", null,
					"set both access-key and secret-key, or neither to use the AWS default credentials chain");
		}
		checkTimeout("connect-timeout", connectTimeout);
		checkTimeout("read-timeout", readTimeout);
		if (maxConnections < 1 || maxConnections > 1024) {
			throw new InvalidConfigurationException("max-connections", Integer.toString(maxConnections),
					"must be 1 to 1024");
		}
		if (maxAttempts < 1 || maxAttempts > 10) {
			throw new InvalidConfigurationException("max-attempts", Integer.toString(maxAttempts), "must be 1 to 10");
		}
		if (partSize.toBytes() < MIN_PART_SIZE || partSize.toBytes() > MAX_PART_SIZE) {
			throw new InvalidConfigurationException("part-size", partSize.toString(),
					"must be 5MB to 5GB (S3's limits for a part)");
		}
		if (partsInFlight < 1 || partsInFlight > 64) {
			throw new InvalidConfigurationException("parts-in-flight", Integer.toString(partsInFlight),
					"must be 1 to 64");
		}
		if (maxListEntries < 1 || maxListEntries > 10_000_000) {
			throw new InvalidConfigurationException("max-list-entries", Integer.toString(maxListEntries),
					"must be 1 to 10000000");
		}
		if (staleUploadAge.isNegative() || (!staleUploadAge.isZero() && staleUploadAge.toSeconds() < 1)
				|| staleUploadAge.compareTo(Duration.ofDays(365)) > 0) {
			throw new InvalidConfigurationException("stale-upload-age", staleUploadAge.toString(),
					"must be 0 (no sweep) or 1s to 365d");
		}
	}

	/** Checks a prefix and returns it without leading and trailing slashes. */
	private static String checkPrefix(String prefix) {
		String trimmed = prefix;
		while (trimmed.startsWith("/")) {
			trimmed = trimmed.substring(1);
		}
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		if (trimmed.isEmpty()) {
			return trimmed;
		}
		try {
			StoragePath parsed = StoragePath.parse("/" + trimmed);
			if (!parsed.toString().equals("/" + trimmed)) {
				throw new InvalidConfigurationException("prefix", prefix, "must be written in Unicode NFC");
			}
		}
		catch (dev.wharf.core.storage.InvalidStoragePathException ex) {
			throw new InvalidConfigurationException("prefix", prefix,
					"must be folder names separated by '/', without '.', '..', empty names or control characters ("
							+ ex.getMessage() + ")");
		}
		return trimmed;
	}

	private static void checkEndpoint(String endpoint) {
		URI uri;
		try {
			uri = new URI(endpoint);
		}
		catch (URISyntaxException ex) {
			uri = null;
		}
		if (uri == null || uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
				|| uri.getRawUserInfo() != null || uri.getRawQuery() != null) {
			// A URL with credentials in it is not shown.
			throw new InvalidConfigurationException("endpoint",
					(uri != null && uri.getRawUserInfo() != null) ? null : endpoint,
					"must be an http or https URL with a host, such as http://127.0.0.1:9000, without credentials or query");
		}
	}

	private static void checkTimeout(String property, Duration timeout) {
		if (timeout.toMillis() < 100 || timeout.compareTo(LONGEST_TIMEOUT) > 0) {
			throw new InvalidConfigurationException(property, timeout.toString(), "must be 100ms to 1h");
		}
	}

	/** The compatible server's URL, or {@code null} for Amazon S3. */
	@Nullable URI endpointUri() {
		return (this.endpoint == null || this.endpoint.isEmpty()) ? null : URI.create(this.endpoint);
	}

	/**
	 * Whether the mount logs in with its own keys rather than the default credentials
	 * chain.
	 */
	boolean hasStaticCredentials() {
		return this.accessKey != null && !this.accessKey.isEmpty();
	}

	/** Whether to address the bucket in the path. */
	boolean effectivePathStyle() {
		return (this.pathStyle != null) ? this.pathStyle : endpointUri() != null;
	}

	/**
	 * The start of every key of the mount: the prefix and a slash, or nothing for the
	 * whole bucket.
	 */
	String keyPrefix() {
		return this.prefix.isEmpty() ? "" : this.prefix + "/";
	}

	/** Shows every setting except the secret key. */
	@Override
	public String toString() {
		return "S3StorageProperties[bucket=" + this.bucket + ", prefix=" + this.prefix + ", endpoint=" + this.endpoint
				+ ", region=" + this.region + ", pathStyle=" + this.pathStyle + ", accessKey=" + this.accessKey
				+ ", secretKey=" + ((this.secretKey != null) ? "(hidden)" : "(none)") + ", partSize=" + this.partSize
				+ ", partsInFlight=" + this.partsInFlight + "]";
	}

}
