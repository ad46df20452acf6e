package dev.wharf.core.storage.s3;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StoragePath;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.util.retry.Retry;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;

/**
 * Moves objects' bytes for {@link S3Storage}: downloads ({@link #read}) and uploads of a
 * known length ({@link #put}), in requests that the SDK signs ({@link S3Presigner}) and
 * Reactor Netty's HTTP client sends. The SDK's CRT client hands every downloaded chunk
 * over in a fresh heap array, which the protocols' Netty channels then copy into a direct
 * buffer before writing it; this client's pooled direct buffers go on to those channels
 * as they are, and the protocols' received buffers go out to S3 as they are, which cuts
 * about a third of the CPU a transfer costs Wharf. Everything else a mount does stays on
 * the SDK.
 *
 * <p>
 * What the SDK did for downloads is done here alike: S3's error answers become the same
 * {@link S3Exception}s (so {@link S3Errors} maps them as before, and a range past the end
 * is still a 416); throttling, 5xx answers and broken connections are retried with the
 * same back-off up to {@code max-attempts}, but only before the first byte is handed on;
 * a body that ends before its {@code Content-Length} fails as unavailable; a response
 * that sends no byte for {@code read-timeout} fails.
 *
 * <p>
 * <b>Threading.</b> The mount has its own connection pool ({@code max-connections}
 * connections, waiting up to {@code read-timeout} for one) and its own event loops, named
 * after the mount: downloaded bytes are handed on there, and uploads complete there,
 * never on the caller's thread. Signing, which may have to fetch credentials, runs on the
 * mount's callback pool. A cancelled download closes its connection. Thread-safe.
 */
final class S3ObjectStreams implements AutoCloseable {

	/** How long a signed request stays valid; it is sent at once. */
	private static final Duration SIGNATURE_VALIDITY = Duration.ofMinutes(15);

	/** S3 closes connections idle for about 20 s; the pool drops them first. */
	private static final Duration MAX_IDLE = Duration.ofSeconds(15);

	/** The header in which S3 names a bucket's region. */
	private static final String BUCKET_REGION = "x-amz-bucket-region";

	private static final Pattern REGION = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

	private static final Pattern ERROR_CODE = Pattern.compile("<Code>([^<]*)</Code>");

	private static final Pattern ERROR_MESSAGE = Pattern.compile("<Message>([^<]*)</Message>");

	private static final NettyDataBufferFactory buffers = new NettyDataBufferFactory(ByteBufAllocator.DEFAULT);

	private final String mount;

	private final String bucket;

	private final Function<Region, S3Presigner> presigners;

	private final boolean followRegion;

	/** Signs for the bucket's region: the configured one until S3 names another. */
	private volatile Signer signer;

	/** Every presigner made, to close. */
	private final Queue<S3Presigner> made = new ConcurrentLinkedQueue<>();

	private final HttpClient http;

	private final ConnectionProvider connections;

	private final LoopResources loops;

	private final Scheduler callbacks;

	private final int maxAttempts;

	private S3ObjectStreams(String mount, String bucket, Function<Region, S3Presigner> presigners, Region region,
			boolean followRegion, HttpClient http, ConnectionProvider connections, LoopResources loops,
			Scheduler callbacks, int maxAttempts) {
		this.mount = mount;
		this.bucket = bucket;
		this.presigners = presigners;
		this.followRegion = followRegion;
		S3Presigner first = presigners.apply(region);
		this.made.add(first);
		this.signer = new Signer(region, first);
		this.http = http;
		this.connections = connections;
		this.loops = loops;
		this.callbacks = callbacks;
		this.maxAttempts = maxAttempts;
	}

	/**
	 * A reader for a mount.
	 * @param mount the mount's name, for messages and thread names
	 * @param bucket the bucket
	 * @param properties the mount's properties
	 * @param presigners a presigner with the mount's credentials for a region; each is
	 * closed by {@link #close()}
	 * @param region the region to sign for
	 * @param followRegion whether to sign for the region S3 names when it answers that
	 * the bucket is in another one (as the SDK's client does without a configured region)
	 * @param callbacks the mount's callback pool, where requests are signed
	 * @return the reader
	 */
	static S3ObjectStreams create(String mount, String bucket, S3StorageProperties properties,
			Function<Region, S3Presigner> presigners, Region region, boolean followRegion, Scheduler callbacks) {
		ConnectionProvider connections = ConnectionProvider.builder("wharf-s3-" + mount)
			.maxConnections(properties.maxConnections())
			.pendingAcquireMaxCount(-1)
			.pendingAcquireTimeout(properties.readTimeout())
			.maxIdleTime(MAX_IDLE)
			.build();
		LoopResources loops = LoopResources.create("wharf-s3-" + mount + "-io",
				Math.max(1, Runtime.getRuntime().availableProcessors()), true);
		HttpClient http = HttpClient.create(connections)
			.runOn(loops)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) properties.connectTimeout().toMillis())
			// Between any two reads of a response, and removed when it ends: an idle
			// pooled connection does not time out.
			.responseTimeout(properties.readTimeout());
		URI endpoint = properties.endpointUri();
		if (endpoint == null || "https".equals(endpoint.getScheme())) {
			http = http.secure();
		}
		return new S3ObjectStreams(mount, bucket, presigners, region, followRegion, http, connections, loops, callbacks,
				properties.maxAttempts());
	}

	/**
	 * An object's bytes, or a range of them.
	 * @param path the path, for messages
	 * @param key the object's key
	 * @param range the {@code Range} header's value, or {@code null} for the whole object
	 * @return the bytes in pooled buffers the subscriber releases; fails with the storage
	 * errors of {@link S3Errors}, or with an unmapped {@link S3Exception} of S3's answer
	 * where {@link S3Errors} keeps one as it is
	 */
	Flux<DataBuffer> read(StoragePath path, String key, @Nullable String range) {
		return Flux.defer(() -> {
			AtomicBoolean handedOn = new AtomicBoolean();
			return attempt(path, key, range).onErrorResume(Misdirected.class, misdirected -> {
				moveTo(misdirected.region);
				return attempt(path, key, range);
			}).doOnNext(buffer -> handedOn.set(true)).retryWhen(Retry.from(failures -> failures.concatMap(failure -> {
				Throwable error = failure.failure();
				if (handedOn.get() || failure.totalRetries() + 1 >= this.maxAttempts || !worthRetrying(error)) {
					return Mono.error(error);
				}
				return Mono.delay(backoff(error, failure.totalRetries()), this.callbacks);
			})))
				.onErrorMap(Misdirected.class, Misdirected::answer)
				.onErrorMap(error -> S3Errors.map(transport(error), path, this.mount));
		});
	}

	/**
	 * Whether {@link #put} may be used: not where S3 may answer that the bucket is in
	 * another region, since a streamed upload cannot be sent again.
	 * @return whether uploads can be streamed
	 */
	boolean streamsUploads() {
		return !this.followRegion;
	}

	/**
	 * Uploads an object of a known length in one streamed {@code PutObject}: the
	 * content's buffers go to the connection as they arrive (Netty's own without a copy),
	 * so the upload holds no part in memory and S3 assembles nothing. S3 stores the
	 * object only once all of it arrived: content that ends early or runs long fails and
	 * closes the connection, leaving nothing. Not retried, since the content is not kept:
	 * a failure reaches the caller, who may send it again.
	 * @param path the path, for messages
	 * @param key the object's key
	 * @param content the bytes; every buffer is released
	 * @param length the exact length the content must have
	 * @param createNew whether S3 must refuse it if the object exists
	 * @return completes when S3 stored the object; fails with the storage errors of
	 * {@link S3Errors}, with {@link InvalidContentException} if the content is not
	 * {@code length} bytes long
	 */
	Mono<Void> put(StoragePath path, String key, Flux<DataBuffer> content, long length, boolean createNew) {
		return Mono
			.fromCallable(() -> this.signer.presigner()
				.presignPutObject(presign -> presign.signatureDuration(SIGNATURE_VALIDITY)
					.putObjectRequest(put -> put.bucket(this.bucket)
						.key(key)
						.contentLength(length)
						.ifNoneMatch(createNew ? "*" : null))))
			.subscribeOn(this.callbacks)
			.flatMap(request -> this.http.headers(headers -> {
				sign(headers, request.signedHeaders());
				headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
			}).put().uri(request.httpRequest().getUri()).send(exactly(content, length)).response((response, body) -> {
				int status = response.status().code();
				if (status == 200) {
					return body.then();
				}
				return answer(status, body).flatMap(Mono::<Void>error);
			}).then())
			.onErrorMap(error -> S3Errors.map(transport(error), path, this.mount));
	}

	/**
	 * The content as Netty's buffers, failing as soon as it runs past the announced
	 * length, or when it ends short of it. The buffer that reaches the length is held
	 * back until the content ends: S3 stores an object as soon as its last byte arrives,
	 * so that byte must not go out before it is certain that nothing follows it.
	 */
	private static Flux<ByteBuf> exactly(Flux<DataBuffer> content, long length) {
		return Flux.defer(() -> {
			AtomicLong total = new AtomicLong();
			AtomicReference<@Nullable DataBuffer> held = new AtomicReference<>();
			return content.<ByteBuf>handle((buffer, sink) -> {
				long sum = total.addAndGet(buffer.readableByteCount());
				if (sum > length) {
					DataBufferUtils.release(buffer);
					sink.error(new InvalidContentException(
							"The content is longer than the announced " + length + " bytes"));
				}
				else if (sum == length && buffer.readableByteCount() > 0) {
					held.set(buffer);
				}
				else if (buffer.readableByteCount() == 0) {
					DataBufferUtils.release(buffer);
				}
				else {
					sink.next(NettyDataBufferFactory.toByteBuf(buffer));
				}
			}).concatWith(Mono.defer(() -> {
				if (total.get() != length) {
					return Mono.error(new InvalidContentException(
							"The content ended after " + total.get() + " of the announced " + length + " bytes"));
				}
				DataBuffer last = held.getAndSet(null);
				return (last != null) ? Mono.just(NettyDataBufferFactory.toByteBuf(last)) : Mono.empty();
			})).doFinally(signal -> {
				DataBuffer last = held.getAndSet(null);
				if (last != null) {
					DataBufferUtils.release(last);
				}
			}).doOnDiscard(DataBuffer.class, DataBufferUtils::release);
		});
	}

	/** Copies a signed request's headers but the host, which Netty writes itself. */
	private static void sign(HttpHeaders headers, Map<String, List<String>> signed) {
		signed.forEach((name, values) -> {
			if (!"host".equalsIgnoreCase(name)) {
				headers.set(name, values);
			}
		});
	}

	/**
	 * Signs for another region from now on, as the SDK's client follows a bucket to its
	 * region (without a configured region, the default one may be wrong).
	 */
	private void moveTo(String region) {
		S3Presigner moved = this.presigners.apply(Region.of(region));
		this.made.add(moved);
		// Reads already signing keep the presigner they have; it is closed with the
		// others.
		this.signer = new Signer(Region.of(region), moved);
	}

	private Flux<DataBuffer> attempt(StoragePath path, String key, @Nullable String range) {
		return Mono
			.fromCallable(() -> this.signer.presigner()
				.presignGetObject(presign -> presign.signatureDuration(SIGNATURE_VALIDITY)
					.getObjectRequest(get -> get.bucket(this.bucket).key(key).range(range))))
			.subscribeOn(this.callbacks)
			.flatMapMany(request -> send(path, request));
	}

	private Flux<DataBuffer> send(StoragePath path, PresignedGetObjectRequest request) {
		return this.http.headers(headers -> sign(headers, request.signedHeaders()))
			.get()
			.uri(request.httpRequest().getUri())
			.response((response, body) -> {
				int status = response.status().code();
				if (status == 200 || status == 206) {
					return body(path, response, body);
				}
				String region = response.responseHeaders().get(BUCKET_REGION);
				return answer(status, body).flatMap(answer -> {
					// S3 names the bucket's region when a request was signed for another.
					if (this.followRegion && (status == 301 || status == 307 || status == 400) && region != null
							&& REGION.matcher(region).matches() && !region.equals(this.signer.region().id())) {
						return Mono.<DataBuffer>error(new Misdirected(region, answer));
					}
					return Mono.<DataBuffer>error(answer);
				});
			});
	}

	/**
	 * A response's body, checked against its {@code Content-Length}: a connection that
	 * ends early must not look like a complete file.
	 */
	private Flux<DataBuffer> body(StoragePath path, HttpClientResponse response, ByteBufFlux body) {
		String length = response.responseHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
		long announced = (length != null) ? Long.parseLong(length.trim()) : -1;
		AtomicLong received = new AtomicLong();
		return body.retain().map(bytes -> {
			received.addAndGet(bytes.readableBytes());
			return (DataBuffer) buffers.wrap(bytes);
		})
			.concatWith(Mono.defer(() -> (announced < 0 || received.get() == announced) ? Mono.empty()
					: Mono.error(new BackendUnavailableException("The S3 server of mount '" + this.mount + "' ended "
							+ path + " after " + received.get() + " of " + announced + " bytes"))));
	}

	/** S3's error answer, read whole, as the SDK would have reported it. */
	private static Mono<S3Exception> answer(int status, ByteBufFlux body) {
		return body.aggregate().asString().defaultIfEmpty("").map(text -> answer(status, text));
	}

	/** S3's error answer as the SDK would have reported it. */
	private static S3Exception answer(int status, String text) {
		String code = first(ERROR_CODE, text);
		String message = first(ERROR_MESSAGE, text);
		AwsErrorDetails.Builder details = AwsErrorDetails.builder().serviceName("S3").errorMessage(message);
		if (code != null) {
			details.errorCode(code);
		}
		return (S3Exception) S3Exception.builder()
			.statusCode(status)
			.awsErrorDetails(details.build())
			.message(((message != null) ? message : "S3 answered " + status) + " (Status Code: " + status + ")")
			.build();
	}

	private static @Nullable String first(Pattern pattern, String text) {
		Matcher matcher = pattern.matcher(text);
		return matcher.find() ? matcher.group(1) : null;
	}

	/**
	 * Whether a failure before the first byte is worth another attempt: what the SDK
	 * retries, throttling, 5xx answers and broken or refused connections.
	 */
	private static boolean worthRetrying(Throwable error) {
		if (error instanceof S3Exception s3) {
			return s3.statusCode() >= 500 || isThrottling(s3);
		}
		return !(error instanceof StorageException) && transport(error) instanceof IOException;
	}

	private static boolean isThrottling(S3Exception error) {
		String code = S3Errors.code(error);
		return error.statusCode() == 503 || error.statusCode() == 429 || "SlowDown".equals(code)
				|| "Throttling".equals(code) || "RequestTimeout".equals(code);
	}

	/**
	 * The SDK's standard back-off: a random delay up to 100 ms (500 ms when throttled)
	 * doubled per attempt, at most 20 s.
	 */
	private static Duration backoff(Throwable error, long retries) {
		long base = (error instanceof S3Exception s3 && isThrottling(s3)) ? 500 : 100;
		long ceiling = Math.min(20_000, base << Math.min(retries, 10));
		return Duration.ofMillis(ThreadLocalRandom.current().nextLong(ceiling + 1));
	}

	/**
	 * Netty's and the pool's failures to connect, to wait for a connection or to read in
	 * time, as the {@link IOException} that {@link S3Errors} maps to unavailable; other
	 * errors as they are.
	 */
	private static Throwable transport(Throwable error) {
		if (error instanceof ChannelException || error instanceof TimeoutException) {
			return new IOException(error.getMessage(), error);
		}
		return error;
	}

	/** A presigner and the region it signs for. */
	private record Signer(Region region, S3Presigner presigner) {
	}

	/** S3's answer that the bucket is in another region, which it names. */
	private static final class Misdirected extends RuntimeException {

		private final String region;

		private final S3Exception answer;

		Misdirected(String region, S3Exception answer) {
			super(answer.getMessage(), answer, false, false);
			this.region = region;
			this.answer = answer;
		}

		S3Exception answer() {
			return this.answer;
		}

	}

	@Override
	public void close() {
		for (S3Presigner presigner : this.made) {
			presigner.close();
		}
		this.connections.disposeLater().subscribe();
		this.loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).subscribe();
	}

}
