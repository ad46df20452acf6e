package dev.wharf.loadtests;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

/**
 * Expresses {@code ab -k -c N -n M} in Gatling, level after level: N virtual users start
 * at once, each on its own keep-alive connection, and together send exactly M requests
 * (the first {@code M mod N} users send one more), like ab's N parallel slots. Levels run
 * one after the other, each counted by a {@link LevelRecorder}.
 *
 * <p>
 * Not thread-safe while levels are added; the built populations are what Gatling runs.
 */
public final class AbLevels {

	private static final String RESPONSE_TIME = "wharfResponseTime";

	private final LevelRecorder recorder;

	private final List<PopulationBuilder> populations = new ArrayList<>();

	/**
	 * Creates an empty sequence of levels.
	 * @param recorder counts every level
	 */
	public AbLevels(LevelRecorder recorder) {
		this.recorder = recorder;
	}

	/**
	 * The HTTP protocol every table uses: a base URL, no emulated browser cache (each
	 * request goes to the server), no {@code Referer} header and no redirects followed
	 * (ab sends neither), URLs sent exactly as written (already percent-encoded like the
	 * originals' ab commands), and {@code Connection: close} on every request when
	 * keep-alive is off (ab without {@code -k}).
	 * @param baseUrl such as {@code http://127.0.0.1:8334}
	 * @param keepAlive whether connections are reused
	 * @return the protocol
	 */
	public static HttpProtocolBuilder protocol(String baseUrl, boolean keepAlive) {
		HttpProtocolBuilder protocol = http.baseUrl(baseUrl)
			.disableCaching()
			.disableUrlEncoding()
			.disableFollowRedirect()
			.disableAutoReferer()
			.userAgentHeader("ApacheBench/2.3 (Gatling; Wharf load tests)");
		return keepAlive ? protocol : protocol.header("Connection", "close");
	}

	/**
	 * The checks every request carries: first its response time (so it is kept even when
	 * a later check fails), then the given checks.
	 * @param request the request
	 * @param checks what makes its answer correct
	 * @return the request with the checks
	 */
	public static HttpRequestActionBuilder checked(HttpRequestActionBuilder request, CheckBuilder... checks) {
		List<CheckBuilder> all = new ArrayList<>();
		all.add(io.gatling.javaapi.core.CoreDsl.responseTimeInMillis().saveAs(RESPONSE_TIME));
		all.addAll(List.of(checks));
		return request.check(all);
	}

	/**
	 * Adds a level.
	 * @param part the table's column or section
	 * @param concurrency N, connections at once
	 * @param requests M, requests in all; at least N, as ab requires
	 * @param request one request (built with {@link #checked})
	 * @return this
	 */
	public AbLevels level(String part, int concurrency, int requests, ChainBuilder request) {
		if (requests < concurrency) {
			throw new IllegalArgumentException(String.format(Locale.ROOT,
					"%s: %d requests at concurrency %d; ab refuses fewer requests than connections", part, requests,
					concurrency));
		}
		String key = part + " c=" + concurrency + " #" + this.populations.size();
		LevelRecorder.Level level = this.recorder.declare(key, part, concurrency);
		AtomicInteger users = new AtomicInteger();
		int each = requests / concurrency;
		int extra = requests % concurrency;
		ChainBuilder counted = exec(request).exec((session) -> {
			long micros = session.contains(RESPONSE_TIME) ? session.getLong(RESPONSE_TIME) * 1000 : -1;
			level.request(!session.isFailed(), micros);
			return session.remove(RESPONSE_TIME).markAsSucceeded();
		});
		PopulationBuilder population = scenario(key).exec((session) -> {
			level.userStarted();
			return session.set("iterations", each + ((users.getAndIncrement() < extra) ? 1 : 0));
		}).repeat((session) -> session.getInt("iterations")).on(counted).exec((session) -> {
			level.userFinished();
			return session;
		}).injectOpen(atOnceUsers(concurrency));
		this.populations.add(population);
		return this;
	}

	/**
	 * Adds a warm-up: requests sent like a level's but not counted, so that the levels
	 * after it measure a server whose JIT compiler has done its work (a JVM's first few
	 * thousand requests run mostly interpreted; C, Go and Python peers get the same
	 * warm-up, which changes nothing for them).
	 * @param concurrency connections at once
	 * @param requests requests in all, at least {@code concurrency}
	 * @param request one request (built with {@link #checked})
	 * @return this
	 */
	public AbLevels warmUp(int concurrency, int requests, ChainBuilder request) {
		int each = Math.max(1, requests / concurrency);
		this.populations.add(scenario("warm-up #" + this.populations.size()).repeat(each)
			.on(exec(request).exec((session) -> session.remove(RESPONSE_TIME).markAsSucceeded()))
			.injectOpen(atOnceUsers(concurrency)));
		return this;
	}

	/**
	 * Whether no level was added.
	 * @return true when there is nothing to run
	 */
	public boolean isEmpty() {
		return this.populations.isEmpty();
	}

	/**
	 * The levels chained one after the other.
	 * @return the first population, the others following it
	 */
	public PopulationBuilder chain() {
		if (this.populations.isEmpty()) {
			throw new IllegalStateException("No level to run");
		}
		PopulationBuilder chain = this.populations.get(this.populations.size() - 1);
		for (int i = this.populations.size() - 2; i >= 0; i--) {
			chain = this.populations.get(i).andThen(chain);
		}
		return chain;
	}

}
