package dev.wharf.app.replicas;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.HaproxyProcess;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three replicas of the packaged jar sharing one folder and one real Redis
 * ({@code wharf.state.store: redis}), behind a real haproxy in round-robin without
 * stickiness, as several pods behind a Service: a login on one is a session on all, a
 * logout on one ends it on all within a second, password guesses spread over the replicas
 * count together, a token minted on one works on all until revoked on any, a resumable
 * upload moves between replicas and two replicas never write one upload at once, build
 * cache entries are shared and the replicas stay within {@code max-size} together, a
 * replica killed under load loses no acknowledged write and logs nobody out, and a
 * stopped Redis makes logins and session checks 503 (never 500) until it is back.
 */
@TestMethodOrder(OrderAnnotation.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ReplicasIT {

	private static final String USER = "ops";

	private static final String PASSWORD = "replicas-password";

	private static final String VICTIM = "victim";

	private static final String VICTIM_PASSWORD = "victim-password";

	/** The build cache's size budget, shared by the replicas. */
	private static final long MAX_SIZE = 4 * 1024 * 1024;

	private static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");

	private static final Pattern TOKEN_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

	@TempDir
	static Path folder;

	static RedisProcess redis;

	static final List<WharfReplica> replicas = new ArrayList<>();

	static HaproxyProcess balancer;

	static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	static String cookie;

	@BeforeAll
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	static void startReplicasBehindTheBalancer() throws Exception {
		redis = RedisProcess.begin();
		Files.createDirectories(folder.resolve("data"));
		List<String> settings = List.of("--wharf.state.store=redis", "--spring.data.redis.url=" + redis.url(),
				"--wharf.state-dir=" + folder.resolve("state"), "--wharf.storage.mounts.data.type=local",
				"--wharf.storage.mounts.data.root=" + folder.resolve("data"), "--wharf.ftp.enabled=false",
				"--wharf.buildcache.eviction.max-size=" + MAX_SIZE, "--wharf.filemanager.uploads.segment-size=64KB",
				"--wharf.security.users[0].name=" + USER,
				"--wharf.security.users[0].password=" + PasswordHashing.hash(PASSWORD),
				"--wharf.security.users[0].roles=admin,user,cache-reader,cache-writer",
				"--wharf.security.users[1].name=" + VICTIM,
				"--wharf.security.users[1].password=" + PasswordHashing.hash(VICTIM_PASSWORD),
				"--wharf.security.users[1].roles=user", "--wharf.security.users[1].mounts.data=rw");
		for (int i = 1; i <= 3; i++) {
			replicas.add(WharfReplica.start("replica" + i, folder, settings));
		}
		for (WharfReplica replica : replicas) {
			replica.awaitReady(Duration.ofMinutes(3));
		}
		balancer = HaproxyProcess.start(folder, replicas.stream().map(WharfReplica::port).toList());
		// Every replica in the balancer's rotation: its checks need two passes.
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> spread(9).stream().distinct().count() == 3);
		cookie = login(balancer.port(), USER, PASSWORD);
	}

	@AfterAll
	static void stopEverything() throws Exception {
		if (balancer != null) {
			balancer.close();
		}
		for (WharfReplica replica : replicas) {
			replica.close();
		}
		if (redis != null) {
			redis.close();
		}
		for (WharfReplica replica : replicas) {
			assertThat(replica.log()).as(replica.name()).doesNotContain(" ERROR ");
		}
	}

	@Test
	@Order(1)
	void oneLoginServesEveryRequestAndALogoutOnAnyReplicaEndsItOnAllWithinASecond() throws Exception {
		Map<Integer, Long> listedBefore = listings();
		for (int i = 0; i < 300; i++) {
			HttpResponse<String> ls = send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(cookie), null);
			assertThat(ls.statusCode()).as("request %d: %s", i, ls.body()).isEqualTo(200);
		}
		Map<Integer, Long> listedAfter = listings();
		for (WharfReplica replica : replicas) {
			assertThat(listedAfter.get(replica.port()) - listedBefore.get(replica.port()))
				.as("requests %s answered", replica.name())
				.isGreaterThanOrEqualTo(50);
		}

		String other = login(balancer.port(), USER, PASSWORD);
		assertThat(send(replicas.get(2).port(), "DELETE", "/api/session", browser(other), null).statusCode())
			.isEqualTo(200);
		long ended = System.nanoTime();
		for (WharfReplica replica : replicas) {
			await().pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(20))
				.atMost(Duration.ofSeconds(1))
				.until(() -> send(replica.port(), "GET", "/api/files/ls?path=/data/", browser(other), null)
					.statusCode() == 401);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - ended)).isLessThan(Duration.ofSeconds(1));
		assertThat(send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(cookie), null).statusCode())
			.as("another session of the same user")
			.isEqualTo(200);
	}

	@Test
	@Order(2)
	void wrongPasswordsSpreadOverTheReplicasLockTheAccountOnAllOfThem() throws Exception {
		// Five free tries for one account from one address, whichever replicas they
		// reach; the next failure locks.
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
			HttpResponse<String> wrong = loginAnswer(replicas.get(i % 3).port(), VICTIM, "guess-" + i);
			assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(401);
		}
		assertThat(loginAnswer(replicas.get(2).port(), VICTIM, "guess-last").statusCode()).isEqualTo(401);
		for (WharfReplica replica : replicas) {
			HttpResponse<String> right = loginAnswer(replica.port(), VICTIM, VICTIM_PASSWORD);
			assertThat(right.statusCode()).as("%s: %s", replica.name(), right.body()).isEqualTo(429);
			assertThat(right.headers().firstValue("Retry-After")).isPresent();
		}
		await().atMost(Duration.ofSeconds(10))
			.until(() -> loginAnswer(balancer.port(), VICTIM, VICTIM_PASSWORD).statusCode() == 200);
	}

	@Test
	@Order(3)
	void aTokenMintedOnOneReplicaWorksOnAllUntilRevokedOnAny() throws Exception {
		HttpResponse<String> minted = send(replicas.get(0).port(), "POST", "/api/tokens?name=ci", basic(USER, PASSWORD),
				null);
		assertThat(minted.statusCode()).as(minted.body()).isEqualTo(201);
		Matcher token = TOKEN.matcher(minted.body());
		assertThat(token.find()).isTrue();
		Map<String, String> bearer = Map.of("Authorization", "Bearer " + token.group(1));
		for (WharfReplica replica : replicas) {
			assertThat(send(replica.port(), "GET", "/api/files/ls?path=/data/", bearer, null).statusCode())
				.isEqualTo(200);
		}
		Matcher id = TOKEN_ID.matcher(send(replicas.get(1).port(), "GET", "/api/tokens", bearer, null).body());
		assertThat(id.find()).isTrue();
		assertThat(send(replicas.get(1).port(), "DELETE", "/api/tokens?id=" + id.group(1), bearer, null).statusCode())
			.isEqualTo(200);
		long revoked = System.nanoTime();
		for (WharfReplica replica : replicas) {
			await().pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(20))
				.atMost(Duration.ofSeconds(1))
				.until(() -> send(replica.port(), "GET", "/api/files/ls?path=/data/", bearer, null)
					.statusCode() == 401);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - revoked)).isLessThan(Duration.ofSeconds(1));
	}

	@Test
	@Order(4)
	void aResumableUploadStartedOnOneReplicaIsContinuedOnAnother() throws Exception {
		byte[] file = StorageTestSupport.randomBytes(31, 0, 700_000);
		String location = createUpload(replicas.get(0).port(), "/data/moved.bin", file.length);
		assertThat(patch(replicas.get(1).port(), location, 0, Arrays.copyOf(file, 300_000)).statusCode())
			.isEqualTo(204);
		HttpResponse<String> head = send(replicas.get(2).port(), "HEAD", location, tus(), null);
		assertThat(head.headers().firstValue("Upload-Offset")).contains("300000");
		assertThat(patch(replicas.get(2).port(), location, 300_000, Arrays.copyOfRange(file, 300_000, file.length))
			.statusCode()).isEqualTo(204);
		assertThat(sha256(download("/data/moved.bin"))).isEqualTo(StorageTestSupport.sha256(file));
	}

	@Test
	@Order(5)
	void twoPatchesOfOneUploadOnTwoReplicasAtOnceOneWinsTheOtherGets409() throws Exception {
		byte[] file = StorageTestSupport.randomBytes(32, 0, 600_000);
		String location = createUpload(balancer.port(), "/data/contended.bin", file.length);
		int sent = 200_000;
		try (Socket first = new Socket("127.0.0.1", replicas.get(0).port())) {
			OutputStream out = first.getOutputStream();
			out.write(("PATCH " + location + " HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + cookie
					+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
					+ "Content-Type: application/offset+octet-stream\r\nContent-Length: " + file.length + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.write(file, 0, sent);
			out.flush();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> Long.parseLong(send(replicas.get(2).port(), "HEAD", location, tus(), null).headers()
					.firstValue("Upload-Offset")
					.orElse("0")) >= 64 * 1024);
			HttpResponse<String> second = patch(replicas.get(1).port(), location, 0, file);
			assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
			out.write(file, sent, file.length - sent);
			out.flush();
			InputStream in = first.getInputStream();
			assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 204");
		}
		assertThat(sha256(download("/data/contended.bin"))).isEqualTo(StorageTestSupport.sha256(file));
	}

	@Test
	@Order(6)
	void buildCacheEntriesAreSharedAndThreeWritersStayWithinTheSizeTogether() throws Exception {
		byte[] entry = StorageTestSupport.randomBytes(41, 0, 10_000);
		assertThat(
				send(replicas.get(0).port(), "PUT", "/cache/shared-entry", basic(USER, PASSWORD), entry).statusCode())
			.isEqualTo(201);
		for (WharfReplica replica : replicas) {
			HttpResponse<byte[]> read = sendBytes(replica.port(), "GET", "/cache/shared-entry", basic(USER, PASSWORD));
			assertThat(read.statusCode()).isEqualTo(200);
			assertThat(read.body()).isEqualTo(entry);
		}
		int size = 32 * 1024;
		ExecutorService writers = Executors.newFixedThreadPool(3);
		try {
			List<Future<?>> running = new ArrayList<>();
			for (int w = 0; w < 3; w++) {
				int writer = w;
				running.add(writers.submit(() -> {
					for (int i = 0; i < 70; i++) {
						byte[] body = StorageTestSupport.randomBytes(1000 * writer + i, 0, size);
						HttpResponse<String> put = send(replicas.get(writer).port(), "PUT",
								"/cache/w" + writer + "-" + i, basic(USER, PASSWORD), body);
						assertThat(put.statusCode()).isEqualTo(201);
					}
					return null;
				}));
			}
			for (Future<?> writer : running) {
				writer.get(3, TimeUnit.MINUTES);
			}
		}
		finally {
			writers.shutdownNow();
		}
		assertThat(3L * 70 * size).as("written").isGreaterThan(MAX_SIZE + MAX_SIZE / 2);
		await().atMost(Duration.ofSeconds(30)).until(() -> cacheBytesOnDisk() <= MAX_SIZE + size);
		assertThat(cacheBytesOnDisk()).isGreaterThan(MAX_SIZE / 2);
	}

	@Test
	@Order(7)
	void whileRedisIsStoppedSessionChecksAndLoginsAnswer503AndAllWorksOnceItIsBack() throws Exception {
		redis.stop();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(cookie), null)
				.statusCode() == 503);
		for (int i = 0; i < 30; i++) {
			HttpResponse<String> ls = send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(cookie), null);
			assertThat(ls.statusCode()).as("never logged out, never 500").isEqualTo(503);
			assertThat(ls.headers().firstValue("Retry-After")).isPresent();
			HttpResponse<String> login = loginAnswer(balancer.port(), USER, PASSWORD);
			assertThat(login.statusCode()).isEqualTo(503);
			assertThat(login.headers().firstValue("Retry-After")).isPresent();
		}
		redis.start();
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> spread(6).size() == 6);
		for (int i = 0; i < 30; i++) {
			assertThat(send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(cookie), null).statusCode())
				.as("the session of before, on every replica")
				.isEqualTo(200);
		}
	}

	@Test
	@Order(8)
	void aReplicaKilledUnderLoadLosesNoAcknowledgedWriteAndLogsNobodyOut() throws Exception {
		Queue<String[]> acknowledged = new ConcurrentLinkedQueue<>();
		Queue<String> failures = new ConcurrentLinkedQueue<>();
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong done = new AtomicLong();
		AtomicLong killedAt = new AtomicLong();
		int clients = 6;
		ExecutorService load = Executors.newFixedThreadPool(clients);
		CountDownLatch started = new CountDownLatch(clients);
		List<Future<?>> loops = new ArrayList<>();
		Files.createDirectories(folder.resolve("data/load"));
		for (int c = 0; c < clients; c++) {
			int client = c;
			loops.add(load.submit(() -> {
				started.countDown();
				for (int n = 0; running.get() && n < 100_000; n++) {
					byte[] body = StorageTestSupport.randomBytes(client * 100_000L + n, 0, 1024);
					String[] write = switch (n % 3) {
						case 0 -> new String[] { "file", "/data/load/c" + client + "-" + n + ".bin" };
						case 1 -> new String[] { "cache", "/cache/load-c" + client + "-" + n };
						default -> null;
					};
					try {
						HttpResponse<String> answer = (write == null)
								? send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(cookie), null)
								: write[0].equals("file")
										? send(balancer.port(), "POST", "/api/files/save?path=" + write[1],
												browser(cookie), body)
										: send(balancer.port(), "PUT", write[1], basic(USER, PASSWORD), body);
						if (answer.statusCode() / 100 == 2) {
							if (write != null) {
								acknowledged.add(new String[] { write[0], write[1], StorageTestSupport.sha256(body) });
							}
						}
						else {
							failures.add(System.nanoTime() + " " + answer.statusCode() + " " + answer.body());
						}
					}
					catch (IOException ex) {
						failures.add(System.nanoTime() + " " + ex);
					}
					done.incrementAndGet();
				}
				return null;
			}));
		}
		started.await();
		// The kill lands in the middle of the load: well past the requests asserted
		// before it.
		await().atMost(Duration.ofMinutes(2)).until(() -> done.get() > 60);
		long before = done.get();
		killedAt.set(System.nanoTime());
		replicas.get(1).kill();
		// And the load goes on well past the requests asserted after it, and twice the 3
		// s within which a failure
		// may happen, so that a later one would be seen.
		await().atMost(Duration.ofMinutes(2))
			.until(() -> done.get() - before > 60
					&& System.nanoTime() - killedAt.get() > Duration.ofSeconds(6).toNanos());
		running.set(false);
		for (Future<?> loop : loops) {
			loop.get(1, TimeUnit.MINUTES);
		}
		load.shutdown();

		System.out.println("Kill under load: " + before + " requests before the kill, " + (done.get() - before)
				+ " after, " + acknowledged.size() + " acknowledged writes, failures: " + failures);
		assertThat(before).as("requests before the kill").isGreaterThan(30);
		assertThat(done.get() - before).as("requests after the kill").isGreaterThan(30);
		// Only requests the killed replica had taken fail: at most one per client, all at
		// the moment of the kill.
		assertThat(failures).as("failures").hasSizeLessThanOrEqualTo(clients);
		for (String failure : failures) {
			long at = Long.parseLong(failure.substring(0, failure.indexOf(' ')));
			assertThat(Duration.ofNanos(Math.abs(at - killedAt.get()))).as(failure).isLessThan(Duration.ofSeconds(3));
			assertThat(failure).as("a 500 is never right").doesNotContain(" 500 ");
		}
		assertThat(acknowledged).hasSizeGreaterThan(20);
		// The cache evicts by design; this run's entries are the newest, and too few to
		// evict one another.
		long cached = acknowledged.stream().filter(write -> write[0].equals("cache")).count();
		assertThat(cached * (1024 + 512)).isLessThan(MAX_SIZE);
		for (String[] write : acknowledged) {
			byte[] stored = write[0].equals("file") ? download(write[1])
					: sendBytes(balancer.port(), "GET", write[1], basic(USER, PASSWORD)).body();
			assertThat(sha256(stored)).as("acknowledged %s %s", write[0], write[1]).isEqualTo(write[2]);
		}
		for (int i = 0; i < 10; i++) {
			assertThat(send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(cookie), null).statusCode())
				.as("still logged in")
				.isEqualTo(200);
		}
	}

	private static String createUpload(int port, String path, long length) throws Exception {
		Map<String, String> headers = new HashMap<>(tus());
		headers.put("Upload-Length", Long.toString(length));
		HttpResponse<String> created = send(port, "POST", "/api/files/upload?path=" + path, headers, null);
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		return created.headers().firstValue("Location").orElseThrow();
	}

	private static HttpResponse<String> patch(int port, String location, long offset, byte[] body) throws Exception {
		Map<String, String> headers = new HashMap<>(tus());
		headers.put("Upload-Offset", Long.toString(offset));
		headers.put("Content-Type", "application/offset+octet-stream");
		return send(port, "PATCH", location, headers, body);
	}

	private static Map<String, String> tus() {
		return Map.of("Cookie", cookie, "X-Requested-With", "XmlHttpRequest", "Tus-Resumable", "1.0.0");
	}

	private static byte[] download(String path) throws Exception {
		HttpResponse<byte[]> cat = sendBytes(balancer.port(), "GET", "/api/files/cat?path=" + path, browser(cookie));
		assertThat(cat.statusCode()).as(path).isEqualTo(200);
		return cat.body();
	}

	private static long cacheBytesOnDisk() throws IOException {
		try (Stream<Path> files = Files.list(folder.resolve("data/.wharf-buildcache"))) {
			return files.filter(file -> file.getFileName().toString().startsWith("w")).mapToLong(file -> {
				try {
					return Files.size(file);
				}
				catch (IOException gone) {
					return 0;
				}
			}).sum();
		}
	}

	/**
	 * Which replica (by the storage listings it counts) answers each of a few requests
	 * through the balancer.
	 */
	private static List<Integer> spread(int requests) throws Exception {
		List<Integer> answered = new ArrayList<>();
		String token = login(balancer.port(), USER, PASSWORD);
		for (int i = 0; i < requests; i++) {
			Map<Integer, Long> before = listings();
			if (send(balancer.port(), "GET", "/api/files/ls?path=/data/", browser(token), null).statusCode() != 200) {
				continue;
			}
			Map<Integer, Long> after = listings();
			after.forEach((port, count) -> {
				if (count > before.get(port)) {
					answered.add(port);
				}
			});
		}
		return answered;
	}

	/** How many listings each replica's data mount made, by the replica's port. */
	private static Map<Integer, Long> listings() throws Exception {
		Map<Integer, Long> counts = new HashMap<>();
		for (WharfReplica replica : replicas) {
			long count = 0;
			try {
				String metrics = send(replica.managementPort(), "GET", "/actuator/prometheus", Map.of(), null).body();
				for (String line : metrics.split("\n")) {
					if (line.startsWith("wharf_storage_operations_seconds_count{")
							&& line.contains("operation=\"list\"")) {
						count += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
					}
				}
			}
			catch (IOException down) {
				count = -1;
			}
			counts.put(replica.port(), count);
		}
		return counts;
	}

	private static String login(int port, String user, String password) throws Exception {
		HttpResponse<String> login = loginAnswer(port, user, password);
		assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
		String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
		return setCookie.substring(0, setCookie.indexOf(';'));
	}

	private static HttpResponse<String> loginAnswer(int port, String user, String password) throws Exception {
		return send(port, "POST", "/api/session", Map.of("Content-Type", "application/json"),
				("{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}").getBytes(StandardCharsets.UTF_8));
	}

	private static Map<String, String> browser(String cookie) {
		return Map.of("Cookie", cookie, "X-Requested-With", "XmlHttpRequest");
	}

	private static Map<String, String> basic(String user, String password) {
		return Map.of("Authorization", "Basic "
				+ Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
	}

	private static HttpResponse<String> send(int port, String method, String target, Map<String, String> headers,
			byte[] body) throws IOException, InterruptedException {
		return http.send(request(port, method, target, headers, body), BodyHandlers.ofString());
	}

	private static HttpResponse<byte[]> sendBytes(int port, String method, String target, Map<String, String> headers)
			throws IOException, InterruptedException {
		return http.send(request(port, method, target, headers, null), BodyHandlers.ofByteArray());
	}

	private static HttpRequest request(int port, String method, String target, Map<String, String> headers,
			byte[] body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + target))
			.timeout(Duration.ofSeconds(30))
			.method(method, (body != null) ? BodyPublishers.ofByteArray(body) : BodyPublishers.noBody());
		headers.forEach(request::header);
		return request.build();
	}

	private static String sha256(byte[] bytes) {
		return StorageTestSupport.sha256(bytes);
	}

}
