package dev.wharf.core.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.state.StateAutoConfiguration;
import dev.wharf.core.state.redis.RedisState;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * Redis clients for tests of the Redis implementations without an application context:
 * each {@link #state} is one replica's client (its own connection factory, configured as
 * Wharf's auto-configuration configures Spring Boot's: commands fail at once while
 * disconnected, and reconnect soon), all closed by {@link #close()}. Not thread-safe.
 */
public final class RedisClients implements AutoCloseable {

	/**
	 * How long a command may take before it counts as unavailable: longer than the
	 * application's 2 s, because a loaded test machine (a JIT compiling on a second JDK,
	 * another build) once held a script past 2 s; a stopped Redis is still refused at
	 * once (commands are rejected while disconnected), well inside the tests' 10 s.
	 */
	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

	private final RedisProcess redis;

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final ClientResources resources = DefaultClientResources.builder()
		.reconnectDelay(StateAutoConfiguration.RECONNECT_DELAY)
		.build();

	/**
	 * Creates clients of one server.
	 * @param redis the server
	 */
	public RedisClients(RedisProcess redis) {
		this.redis = redis;
	}

	/**
	 * A new client, as one replica has.
	 * @param prefix the key prefix, such as {@code wharf:}
	 * @return its state
	 */
	public RedisState state(String prefix) {
		return new RedisState(new ReactiveStringRedisTemplate(connections()), prefix, COMMAND_TIMEOUT);
	}

	/**
	 * A new connection factory, started; closed with the others.
	 * @return the factory
	 */
	public LettuceConnectionFactory connections() {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.clientOptions(ClientOptions.builder().disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS).build())
			.clientResources(this.resources)
			.commandTimeout(COMMAND_TIMEOUT)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.redis.port()), client);
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	@Override
	public void close() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.factories.clear();
		this.resources.shutdown();
	}

}
