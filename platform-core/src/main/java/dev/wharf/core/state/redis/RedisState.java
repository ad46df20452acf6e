package dev.wharf.core.state.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import dev.wharf.core.state.SharedStateUnavailableException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What every Redis implementation of the shared state uses: the client, the key prefix,
 * the scripts, a deadline per command and one translation of failures. Whatever goes
 * wrong between Wharf and Redis (refused or dropped connections, a command past its
 * deadline, Redis out of memory, loading or read-only after a failover) becomes a
 * {@link SharedStateUnavailableException}, which protocols answer with "try again later";
 * it is logged as a warning at most every {@value #LOG_EVERY_SECONDS} seconds.
 *
 * <p>
 * <b>Threading.</b> Nothing blocks: commands run on the Redis client's event loop.
 * Thread-safe. <b>Nulls.</b> No argument may be {@code null}.
 */
public final class RedisState {

	private static final long LOG_EVERY_SECONDS = 10;

	private static final Log logger = LogFactory.getLog(RedisState.class);

	private final ReactiveStringRedisTemplate redis;

	private final String prefix;

	private final Duration timeout;

	private final AtomicLong lastWarning = new AtomicLong(
			System.nanoTime() - Duration.ofSeconds(LOG_EVERY_SECONDS).toNanos());

	/**
	 * Creates the state.
	 * @param redis the client, with string keys and values
	 * @param prefix what every key starts with, such as {@code wharf:}
	 * @param timeout how long a command may take before the store counts as unavailable
	 */
	public RedisState(ReactiveStringRedisTemplate redis, String prefix, Duration timeout) {
		this.redis = redis;
		this.prefix = prefix;
		this.timeout = timeout;
	}

	/**
	 * The client. Callers pass what it returns through {@link #guard(Mono)} or
	 * {@link #guard(Flux)}.
	 */
	public ReactiveStringRedisTemplate redis() {
		return this.redis;
	}

	/**
	 * A key under the prefix.
	 * @param parts the key's parts, joined with {@code :}
	 * @return such as {@code wharf:session:abc}
	 */
	public String key(String... parts) {
		return this.prefix + String.join(":", parts);
	}

	/** The prefix of every key. */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * Runs a script.
	 * @param <T> its result type
	 * @param script the script
	 * @param keys the keys it changes
	 * @param args its arguments
	 * @return its result (a list result comes as its elements)
	 */
	public <T> Flux<T> run(RedisScript<T> script, List<String> keys, List<String> args) {
		return guard(this.redis.execute(script, keys, args));
	}

	/**
	 * Applies the deadline and the translation of failures to a command.
	 * @param <T> the result
	 * @param command the command
	 * @return the same command, failing with {@link SharedStateUnavailableException} when
	 * Redis does not answer
	 */
	public <T> Mono<T> guard(Mono<T> command) {
		return command.timeout(this.timeout).onErrorMap(RedisState::isUnavailable, this::unavailable);
	}

	/**
	 * Applies the deadline (to the whole result) and the translation of failures to a
	 * command.
	 * @param <T> the result's elements
	 * @param command the command
	 * @return the same command, failing with {@link SharedStateUnavailableException} when
	 * Redis does not answer
	 */
	public <T> Flux<T> guard(Flux<T> command) {
		return command.timeout(Mono.delay(this.timeout)).onErrorMap(RedisState::isUnavailable, this::unavailable);
	}

	/**
	 * Loads a script kept beside this class
	 * ({@code dev/wharf/core/state/redis/<name>.lua}) or beside another class's package.
	 * @param <T> its result type
	 * @param anchor a class in the package whose resource folder holds the script
	 * @param name the script's name without {@code .lua}
	 * @param resultType {@code Long}, {@code String}, {@code List} or {@code Boolean}
	 * @return the script
	 */
	public static <T> RedisScript<T> script(Class<?> anchor, String name, Class<T> resultType) {
		return RedisScript.of(new ClassPathResource(name + ".lua", anchor), resultType);
	}

	private static boolean isUnavailable(Throwable error) {
		return error instanceof DataAccessException || error instanceof TimeoutException
				|| error instanceof io.lettuce.core.RedisException;
	}

	private Throwable unavailable(Throwable error) {
		long now = System.nanoTime();
		long last = this.lastWarning.get();
		if (now - last >= Duration.ofSeconds(LOG_EVERY_SECONDS).toNanos()
				&& this.lastWarning.compareAndSet(last, now)) {
			logger.warn("Redis (wharf.state.store) is unavailable: " + error);
		}
		return new SharedStateUnavailableException(error);
	}

}
