package dev.wharf.core.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Sinks;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RequestAdmission} on a bare Reactor Netty server, over raw sockets:
 * with a bound of N, N + k concurrent slow requests reach the handler at most N at a time
 * and all complete; a connection that leaves the line gives up its place; the request
 * head timeout still answers a slow head while the server is at its bound.
 */
class RequestAdmissionTests {

	private static final int BOUND = 2;

	DisposableServer server;

	final ExecutorService clients = Executors.newCachedThreadPool();

	/**
	 * Each request's answer, by its path: the handler waits until the test completes it.
	 */
	final Map<String, Sinks.One<String>> answers = new ConcurrentHashMap<>();

	/** Requests that reached the handler. */
	final AtomicInteger entered = new AtomicInteger();

	/** The paths of the requests that reached the handler, in order. */
	final BlockingQueue<String> arrivals = new LinkedBlockingQueue<>();

	/** Requests the test let finish: the handler's work on them is over. */
	final AtomicInteger finished = new AtomicInteger();

	/** The most requests in the handler at once, as the handler saw it on entry. */
	final AtomicInteger mostAtOnce = new AtomicInteger();

	@AfterEach
	void dispose() {
		this.answers.values().forEach((answer) -> answer.tryEmitValue("late"));
		this.clients.shutdownNow();
		if (this.server != null) {
			this.server.disposeNow();
		}
	}

	private void start(Duration headTimeout) {
		HttpServer server = KeepAliveReadResumer.install(HttpServer.create().host("127.0.0.1").port(0));
		server = RequestHeadTimeout.install(server, headTimeout);
		this.server = RequestAdmission.install(server, BOUND).handle((request, response) -> {
			int inHandler = this.entered.incrementAndGet() - this.finished.get();
			this.mostAtOnce.accumulateAndGet(inHandler, Math::max);
			String path = "/" + request.path();
			this.arrivals.add(path);
			return response.sendString(answer(path).asMono());
		}).bindNow(Duration.ofSeconds(10));
	}

	private Sinks.One<String> answer(String path) {
		return this.answers.computeIfAbsent(path, (key) -> Sinks.one());
	}

	/** Lets the handler answer one request; counted before, so the bound is exact. */
	private void finish(String path) {
		this.finished.incrementAndGet();
		assertThat(answer(path).tryEmitValue("answer " + path).isSuccess()).isTrue();
	}

	@Test
	void moreConcurrentRequestsThanTheBoundReachTheHandlerAtMostBoundAtATimeAndAllComplete() throws Exception {
		start(Duration.ofSeconds(20));
		int requests = BOUND + 4;
		List<Future<RawHttp.Response>> responses = new ArrayList<>();
		for (int i = 0; i < requests; i++) {
			responses.add(this.clients.submit(request("/" + i)));
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> this.entered.get() == BOUND);
		// The others are read (their heads are complete) but held in front of the
		// handler.
		assertStaysAt(BOUND);
		for (int done = 0; done < requests; done++) {
			String next = this.arrivals.poll(30, TimeUnit.SECONDS);
			assertThat(next).isNotNull();
			finish(next);
			int expected = Math.min(requests, BOUND + done + 1);
			await().atMost(Duration.ofSeconds(30)).until(() -> this.entered.get() == expected);
		}
		for (int i = 0; i < requests; i++) {
			RawHttp.Response response = responses.get(i).get(30, TimeUnit.SECONDS);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.text()).isEqualTo("answer /" + i);
		}
		assertThat(this.mostAtOnce.get()).isEqualTo(BOUND);
	}

	@Test
	void aKeepAliveConnectionQueuesAgainForItsNextRequest() throws Exception {
		start(Duration.ofSeconds(20));
		try (RawHttp first = RawHttp.open(this.server.port());
				RawHttp second = RawHttp.open(this.server.port());
				RawHttp third = RawHttp.open(this.server.port())) {
			first.send(get("/a"));
			second.send(get("/b"));
			await().atMost(Duration.ofSeconds(30)).until(() -> this.entered.get() == BOUND);
			third.send(get("/c"));
			assertStaysAt(BOUND);
			// /a's response frees its slot for /c, which waited longer than the next
			// request on /a's connection.
			finish("/a");
			assertThat(first.read().text()).isEqualTo("answer /a");
			first.send(get("/a2"));
			await().atMost(Duration.ofSeconds(30)).until(() -> reached("/c"));
			assertStaysAt(BOUND + 1);
			assertThat(reached("/a2")).isFalse();
			finish("/b");
			await().atMost(Duration.ofSeconds(30)).until(() -> reached("/a2"));
			finish("/c");
			finish("/a2");
			assertThat(second.read().text()).isEqualTo("answer /b");
			assertThat(third.read().text()).isEqualTo("answer /c");
			assertThat(first.read().text()).isEqualTo("answer /a2");
		}
		assertThat(this.mostAtOnce.get()).isEqualTo(BOUND);
	}

	@Test
	void aConnectionClosedWhileWaitingLeavesTheLine() throws Exception {
		start(Duration.ofSeconds(20));
		Future<RawHttp.Response> a = this.clients.submit(request("/a"));
		Future<RawHttp.Response> b = this.clients.submit(request("/b"));
		await().atMost(Duration.ofSeconds(30)).until(() -> this.entered.get() == BOUND);
		try (RawHttp leaving = RawHttp.open(this.server.port())) {
			leaving.send(get("/gone"));
			assertStaysAt(BOUND);
		}
		Future<RawHttp.Response> c = this.clients.submit(request("/c"));
		assertStaysAt(BOUND);
		finish("/a");
		// The slot goes past the closed connection to /c.
		await().atMost(Duration.ofSeconds(30)).until(() -> reached("/c"));
		assertThat(reached("/gone")).isFalse();
		finish("/b");
		finish("/c");
		assertThat(a.get(30, TimeUnit.SECONDS).text()).isEqualTo("answer /a");
		assertThat(b.get(30, TimeUnit.SECONDS).text()).isEqualTo("answer /b");
		assertThat(c.get(30, TimeUnit.SECONDS).text()).isEqualTo("answer /c");
		assertThat(this.entered.get()).isEqualTo(3);
	}

	@Test
	void aSlowHeadGets408WhileTheServerIsAtItsBound() throws Exception {
		Duration headTimeout = Duration.ofMillis(500);
		start(headTimeout);
		Future<RawHttp.Response> a = this.clients.submit(request("/a"));
		Future<RawHttp.Response> b = this.clients.submit(request("/b"));
		await().atMost(Duration.ofSeconds(30)).until(() -> this.entered.get() == BOUND);
		// A whole head waits longer than the head timeout without a 408; a partial
		// head gets its 408 although no slot is free.
		Future<RawHttp.Response> waiting = this.clients.submit(request("/waiting"));
		try (RawHttp slow = RawHttp.open(this.server.port())) {
			assertThat(slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n").read().status()).isEqualTo(408);
			assertThat(slow.closedWithin(RawHttp.PATIENCE)).isTrue();
		}
		assertStaysAt(BOUND);
		assertThat(waiting.isDone()).isFalse();
		finish("/a");
		finish("/b");
		await().atMost(Duration.ofSeconds(30)).until(() -> reached("/waiting"));
		finish("/waiting");
		assertThat(waiting.get(30, TimeUnit.SECONDS).text()).isEqualTo("answer /waiting");
		assertThat(a.get(30, TimeUnit.SECONDS).text()).isEqualTo("answer /a");
		assertThat(b.get(30, TimeUnit.SECONDS).text()).isEqualTo("answer /b");
	}

	/** Whether a request reached the handler. */
	private boolean reached(String path) {
		return this.arrivals.contains(path);
	}

	/** Asserts that the handler has been entered exactly so often and stays there. */
	private void assertStaysAt(int count) {
		await("no more requests in the handler").during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.entered.get() == count);
	}

	/** One request on its own connection, closed after the response. */
	private Callable<RawHttp.Response> request(String path) {
		return () -> RawHttp.exchange(this.server.port(), get(path));
	}

	private static String get(String path) {
		return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
	}

}
