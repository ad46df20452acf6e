package dev.wharf.core.web;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.wharf.core.autoconfigure.WebServerAutoConfiguration;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.Requirements;
import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.context.AnnotationConfigReactiveWebServerApplicationContext;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.resources.LoopResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link PerLoopListeners} on Spring Boot's Reactor Netty server, on 127.0.0.1
 * port 0, with three event loops of its own: curl's new connections are accepted on every
 * loop and stay on the loop that accepted them, through every customizer; graceful
 * shutdown closes every listening socket and lets the request in flight finish; turned
 * off, the server listens once; the auto-configuration installs it, when turned on, after
 * Spring Boot's own customizers. The listening sockets are counted in
 * {@code /proc/net/tcp}.
 */
class PerLoopListenersTests {

	private static final int LOOPS = 3;

	/** What the handler saw of each request: the connection's channel. */
	final List<Channel> connections = new ArrayList<>();

	/** Connections the customizer added before {@link PerLoopListeners} was set up. */
	final AtomicInteger initialized = new AtomicInteger();

	final Map<String, Sinks.One<String>> answers = new ConcurrentHashMap<>();

	final ExecutorService clients = Executors.newCachedThreadPool();

	@TempDir
	Path temp;

	ReactorResourceFactory resources;

	WebServer server;

	@BeforeEach
	void requireEpoll() {
		Requirements.require(Epoll.isAvailable(), "Netty's native epoll transport (Linux)");
		this.resources = new ReactorResourceFactory();
		this.resources.setUseGlobalResources(false);
		this.resources.setLoopResources(LoopResources.create("per-loop-test", LOOPS, true));
		this.resources.afterPropertiesSet();
	}

	@AfterEach
	void stop() {
		this.answers.values().forEach((answer) -> answer.tryEmitValue("late"));
		this.clients.shutdownNow();
		if (this.server != null) {
			this.server.stop();
		}
		this.resources.destroy();
	}

	/** Starts the server with Spring Boot's factory, on its own loops. */
	private int start(boolean perLoop, Shutdown shutdown) {
		return start(perLoop, shutdown, new NettyReactiveWebServerFactory(0));
	}

	private int start(boolean perLoop, Shutdown shutdown, NettyReactiveWebServerFactory factory) {
		factory.setAddress(InetAddress.getLoopbackAddress());
		factory.setResourceFactory(this.resources);
		factory.setShutdown(shutdown);
		factory.addServerCustomizers(
				server -> server.doOnChannelInit((observer, channel, address) -> this.initialized.incrementAndGet()));
		new PerLoopListeners(perLoop).customize(factory);
		HttpHandler handler = (request, response) -> {
			HttpServerRequest nativeRequest = ((AbstractServerHttpRequest) request).getNativeRequest();
			nativeRequest.withConnection(connection -> {
				// An HTTP/2 request is a stream: its parent is the connection.
				Channel channel = connection.channel();
				channel = (channel.parent() instanceof ServerChannel) ? channel : channel.parent();
				synchronized (this.connections) {
					this.connections.add(channel);
				}
			});
			String path = request.getPath().value();
			Mono<String> body = path.startsWith("/slow")
					? this.answers.computeIfAbsent(path, (key) -> Sinks.one()).asMono() : Mono.just("ok");
			return response
				.writeWith(body.map(text -> response.bufferFactory().wrap(text.getBytes(StandardCharsets.UTF_8))));
		};
		this.server = factory.getWebServer(handler);
		this.server.start();
		return this.server.getPort();
	}

	@Test
	void newConnectionsAreAcceptedOnEveryLoopAndStayOnTheLoopThatAcceptedThem() throws Exception {
		int port = start(true, Shutdown.IMMEDIATE);
		assertThat(port).isPositive();
		assertThat(listeningSockets(port)).isEqualTo(LOOPS);
		int requests = 200;
		assertThat(curlClosing(port, requests)).containsOnly("200");
		assertThat(this.connections).hasSize(requests);
		assertThat(this.initialized).hasValue(requests);
		// Every connection is served on the loop of the listening socket that accepted
		// it, and every listening socket accepted some.
		assertThat(this.connections).allSatisfy(channel -> {
			assertThat(channel.eventLoop()).isSameAs(channel.parent().eventLoop());
			assertThat(((InetSocketAddress) channel.localAddress()).getPort()).isEqualTo(port);
		});
		assertThat(this.connections.stream().map(Channel::parent).distinct()).hasSize(LOOPS);
		assertThat(this.connections.stream().map(Channel::eventLoop).distinct()).hasSize(LOOPS);
	}

	@Test
	void everyListenerSpeaksTlsAndHttp2() throws Exception {
		Path keyStore = this.temp.resolve("server.p12");
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1", "-keyalg",
				"EC", "-validity", "2", "-storetype", "PKCS12", "-storepass", "changeit", "-keystore",
				keyStore.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(keytool.getInputStream().readAllBytes());
		assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(keytool.exitValue()).as(output).isZero();
		NettyReactiveWebServerFactory factory = new NettyReactiveWebServerFactory(0);
		Ssl ssl = new Ssl();
		ssl.setKeyStore("file:" + keyStore);
		ssl.setKeyStorePassword("changeit");
		ssl.setKeyStoreType("PKCS12");
		factory.setSsl(ssl);
		Http2 http2 = new Http2();
		http2.setEnabled(true);
		factory.setHttp2(http2);
		int port = start(true, Shutdown.IMMEDIATE, factory);
		// One curl per request: within one curl, HTTP/2 requests share a connection.
		int requests = 40;
		List<String> answers = new ArrayList<>();
		for (int i = 0; i < requests; i++) {
			answers.addAll(curl("https", port, 1, "-k", "--http2", "-w", "%{http_version} %{http_code}\\n"));
		}
		assertThat(answers).hasSize(requests).containsOnly("2 200");
		// Over TLS with HTTP/2 negotiated (ALPN) on every listener.
		assertThat(this.connections).hasSize(requests)
			.allSatisfy(channel -> assertThat(channel.eventLoop()).isSameAs(channel.parent().eventLoop()));
		assertThat(this.connections.stream().map(Channel::parent).distinct()).hasSize(LOOPS);
	}

	@Test
	void turnedOffTheServerListensOnceAndHandsConnectionsToTheOtherLoops() throws Exception {
		int port = start(false, Shutdown.IMMEDIATE);
		assertThat(listeningSockets(port)).isEqualTo(1);
		int requests = 30;
		assertThat(curlClosing(port, requests)).containsOnly("200");
		assertThat(this.connections.stream().map(Channel::parent).distinct()).hasSize(1);
		assertThat(this.connections.stream().map(Channel::eventLoop).distinct()).hasSize(LOOPS);
	}

	@Test
	void gracefulShutdownClosesEveryListenerAndLetsTheRequestInFlightFinish() throws Exception {
		int port = start(true, Shutdown.GRACEFUL);
		assertThat(listeningSockets(port)).isEqualTo(LOOPS);
		try (RawHttp inFlight = RawHttp.open(port)) {
			inFlight.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
			await().atMost(Duration.ofSeconds(30)).until(() -> this.answers.containsKey("/slow"));
			AtomicReference<GracefulShutdownResult> result = new AtomicReference<>();
			this.server.shutDownGracefully(result::set);
			await().atMost(Duration.ofSeconds(30)).until(() -> listeningSockets(port) == 0);
			for (int i = 0; i < 20; i++) {
				assertThat(refused(port)).isTrue();
			}
			assertThat(result.get()).isNull();
			this.answers.get("/slow").tryEmitValue("finished");
			RawHttp.Response response = inFlight.read();
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.text()).isEqualTo("finished");
			await().atMost(Duration.ofSeconds(30)).until(() -> result.get() == GracefulShutdownResult.IDLE);
		}
	}

	@Test
	void theAutoConfiguredServerListensOnEveryLoopWhenTurnedOn() {
		ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner(
				AnnotationConfigReactiveWebServerApplicationContext::new)
			.withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
					HttpHandlerAutoConfiguration.class, WebFluxAutoConfiguration.class,
					WebServerAutoConfiguration.class))
			.withPropertyValues("server.port=0", "server.address=127.0.0.1");
		runner.withPropertyValues("wharf.http.accept-per-loop=true").run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(listeningSockets(port(context))).isEqualTo(LoopResources.DEFAULT_IO_WORKER_COUNT)
				.isGreaterThan(1);
		});
		// Off by default: the server listens once, as Spring Boot makes it.
		runner.run(context -> assertThat(listeningSockets(port(context))).isEqualTo(1));
		runner.withPropertyValues("wharf.http.accept-per-loop=false")
			.run(context -> assertThat(listeningSockets(port(context))).isEqualTo(1));
		runner.withPropertyValues("wharf.http.accept-per-loop=sometimes")
			.run(context -> assertThat(context).getFailure()
				.hasRootCauseInstanceOf(IllegalArgumentException.class)
				.hasStackTraceContaining("Failed to bind properties under 'wharf.http.accept-per-loop'"));
	}

	/** The port of the web server the context started. */
	private static int port(AssertableReactiveWebApplicationContext context) {
		return ((AnnotationConfigReactiveWebServerApplicationContext) context.getSourceApplicationContext())
			.getWebServer()
			.getPort();
	}

	/**
	 * Runs curl for {@code count} sequential requests, each asking the server to close
	 * its connection: a new connection for each.
	 * @return the statuses
	 */
	private List<String> curlClosing(int port, int count) throws Exception {
		return curl("http", port, count, "-H", "Connection: close", "-w", "%{http_code}\\n");
	}

	/**
	 * Runs curl for {@code count} sequential requests.
	 * @param options curl's options
	 * @return what curl wrote, a line per request
	 */
	private List<String> curl(String scheme, int port, int count, String... options) throws Exception {
		Path curl = Requirements.requireExecutable("curl", "curl");
		List<String> command = new ArrayList<>(List.of(curl.toString(), "-sS"));
		command.addAll(List.of(options));
		for (int i = 0; i < count; i++) {
			command.addAll(List.of("-o", "/dev/null", scheme + "://127.0.0.1:" + port + "/" + i));
		}
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		Future<String> output = this.clients.submit(() -> new String(process.getInputStream().readAllBytes()));
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		String lines = output.get(30, TimeUnit.SECONDS);
		assertThat(process.exitValue()).as(lines).isZero();
		return List.of(lines.strip().split("\n"));
	}

	/** Whether a connection to the port is refused (nothing listens on it). */
	private static boolean refused(int port) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
			return false;
		}
		catch (ConnectException ex) {
			return true;
		}
	}

	/**
	 * The listening TCP sockets on a port, as the kernel lists them (Netty's epoll
	 * sockets are IPv6 sockets, listed in {@code tcp6} also when bound to 127.0.0.1).
	 */
	static int listeningSockets(int port) throws IOException {
		String local = String.format(Locale.ROOT, ":%04X", port);
		int count = 0;
		for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
			try (var lines = Files.lines(Path.of(table))) {
				count += (int) lines.skip(1)
					.map(line -> line.trim().split("\\s+"))
					.filter(fields -> fields[1].endsWith(local) && fields[3].equals("0A"))
					.count();
			}
		}
		return count;
	}

}
