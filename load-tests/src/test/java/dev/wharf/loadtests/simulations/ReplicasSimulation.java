package dev.wharf.loadtests.simulations;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.gatling.javaapi.core.ChainBuilder;

import dev.wharf.loadtests.AbLevels;
import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.TableSimulation;

import static io.gatling.javaapi.core.CoreDsl.ByteArrayBody;
import static io.gatling.javaapi.core.CoreDsl.bodyLength;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.roundRobinSwitch;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * Not a published table: Wharf's replicas behind a balancer ({@code run.sh replicas} puts
 * haproxy in round-robin in front of one or three replicas sharing Redis and a folder).
 * Levels: {@code ls} of a folder with one session cookie taken once (every replica must
 * know the session), build cache {@code PUT} then {@code GET} of 4 KiB entries (each key
 * written through one replica and read through others), and a last mixed level of the
 * three in which, with {@code -DkillPid}, that process (one replica) is killed with
 * SIGKILL when half of the level's requests are done: its failed requests are what a
 * crashed replica costs.
 *
 * <p>
 * Parameters (besides {@link TableSimulation}'s): {@code concurrency} (default 50),
 * {@code requests} per level (default 20000), {@code lsPath} (default {@code /files/}),
 * {@code cachePath} (default {@code /cache}), {@code user}, {@code password},
 * {@code killPid} (default none).
 */
public class ReplicasSimulation extends TableSimulation {

	/** The size of the cache entries. */
	static final int ENTRY_SIZE = 4096;

	/** Builds the levels from the system properties. */
	public ReplicasSimulation() {
		super("replicas");
		int concurrency = Parameters.positive("concurrency", 50);
		int requests = Parameters.positive("requests", 20_000);
		String cachePath = Parameters.text("cachePath", "/cache");
		String user = Parameters.text("user", "bench");
		String password = Parameters.text("password", "");
		String authorization = "Basic "
				+ Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		FilestashApi api = FilestashApi.login(this.baseUrl, user, password);
		ChainBuilder ls = api.ls(Parameters.text("lsPath", "/files/"));
		byte[] value = new byte[ENTRY_SIZE];
		new SplittableRandom(ENTRY_SIZE).nextBytes(value);
		long keySpace = new SplittableRandom().nextLong() >>> 16;
		AtomicLong written = new AtomicLong();
		AtomicLong read = new AtomicLong();
		// Reads go over the keys of the PUT level, round and round: all of them stored
		// before any read (a key the
		// mixed level writes may still be on its way when a read asks for it).
		long stored = scaled(requests, capped(concurrency));
		ChainBuilder put = exec((session) -> session.set("key", key(keySpace, written.getAndIncrement())))
			.exec(AbLevels.checked(http("PUT").put(cachePath + "/#{key}")
				.header("Authorization", authorization)
				.header("Content-Type", "application/octet-stream")
				.body(ByteArrayBody(value)), status().is(201)));
		ChainBuilder get = exec((session) -> session.set("key", key(keySpace, read.getAndIncrement() % stored)))
			.exec(AbLevels.checked(http("GET").get(cachePath + "/#{key}").header("Authorization", authorization),
					status().is(200), bodyLength().is(ENTRY_SIZE)));
		level("ls", concurrency, requests, ls);
		level("PUT 4 KiB", concurrency, requests, put);
		level("GET 4 KiB", concurrency, requests, get);
		long killPid = Long.parseLong(Parameters.text("killPid", "0"));
		int mixed = scaled(requests, capped(concurrency));
		AtomicLong sent = new AtomicLong();
		AtomicBoolean killed = new AtomicBoolean();
		ChainBuilder killer = exec((session) -> {
			if (killPid > 0 && sent.incrementAndGet() >= mixed / 2 && killed.compareAndSet(false, true)) {
				ProcessHandle.of(killPid).ifPresent(ProcessHandle::destroyForcibly);
			}
			return session;
		});
		level((killPid > 0) ? "mixed, a replica killed" : "mixed", concurrency, requests,
				killer.exec(roundRobinSwitch().on(ls, put, get)));
		start();
	}

	static String key(long keySpace, long index) {
		return String.format(Locale.ROOT, "%012x%020x", keySpace, index);
	}

}
