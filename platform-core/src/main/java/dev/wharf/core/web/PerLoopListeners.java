package dev.wharf.core.web;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.util.concurrent.EventExecutor;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerConfig;
import reactor.netty.resources.LoopResources;

/**
 * Accepts the HTTP server's connections on every event loop instead of one. Reactor
 * Netty's server has one listening socket: the loop it sits on accepts every connection
 * and registers each on the next loop in turn, so most new connections wake a second
 * thread (a context switch and an {@code eventfd} write each, a large part of a short
 * connection's CPU). On Linux epoll this binds one listening socket per event loop on the
 * same address and port with {@code SO_REUSEPORT}: the kernel spreads new connections
 * over them, and each loop keeps the connections it accepts, as each nginx worker does.
 * The kernel picks a listener by a hash of the connection's addresses, so the loops get
 * about, not exactly, as many connections each, where the hand-off takes turns.
 * <p>
 * Every listener is the one server Spring Boot configured (TLS, HTTP/2, every
 * {@code NettyServerCustomizer}, the handler, the channel group graceful shutdown waits
 * on), bound on a different loop of the loop resources it would have run on; the first is
 * bound to the configured port (0 picks one) and the others to the port it got. The
 * server Spring Boot holds sees them as one: its port is theirs, disposing it closes
 * every listening socket before it waits for the requests in flight. The number of
 * listeners is the number of event loops ({@code reactor.netty.ioWorkerCount}).
 * <p>
 * The server is bound as before, with one listener, where this cannot apply: loops other
 * than epoll (NIO, kqueue on macOS), a single event loop, an address that is not an IP
 * address and port, or a bound on connections ({@code maxConnections}), which Reactor
 * Netty keeps per listening socket. Installed on the web server factory after every other
 * customizer, so that it wraps the finished server.
 * <p>
 * {@code SO_REUSEPORT} lets another process of the same user that also sets it bind the
 * same port and take a share of the connections, as it does for nginx with
 * {@code reuseport}.
 * <p>
 * Thread-safe: the server it makes is immutable, as Reactor Netty's are.
 */
public final class PerLoopListeners implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory>, Ordered {

	private final boolean enabled;

	/**
	 * Creates the customizer.
	 * @param enabled whether to accept on every loop
	 * ({@code wharf.http.accept-per-loop}); when {@code false} the server is left as
	 * Spring Boot makes it
	 */
	public PerLoopListeners(boolean enabled) {
		this.enabled = enabled;
	}

	@Override
	public void customize(NettyReactiveWebServerFactory factory) {
		if (this.enabled) {
			factory.addServerCustomizers(PerLoopListeners::install);
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * Makes a server bind one listener per event loop where it can (see the class
	 * description). Methods called on the returned server after this configure every
	 * listener.
	 * @param server the configured server
	 * @return the server binding one listener per event loop
	 */
	public static HttpServer install(HttpServer server) {
		return (server instanceof Listening) ? server : new Listening(server);
	}

	/** The event loops to accept on, or an empty list where this does not apply. */
	private static List<EventLoop> acceptingLoops(HttpServerConfig config) {
		if (config.maxConnections() > 0) {
			return List.of();
		}
		EventLoopGroup group = config.loopResources().onServer(config.isPreferNative());
		if (!(group instanceof IoEventLoopGroup io) || !io.isCompatible(EpollIoHandle.class)) {
			return List.of();
		}
		List<EventLoop> loops = new ArrayList<>();
		for (EventExecutor executor : group) {
			if (!(executor instanceof EventLoop loop)) {
				return List.of();
			}
			loops.add(loop);
		}
		return (loops.size() > 1) ? loops : List.of();
	}

	/**
	 * A configured server whose {@link #bind()} binds one listener per event loop.
	 * Reactor Netty's servers are immutable: every configuring method copies the server
	 * through {@link #duplicate()}, so the configuration stays the wrapped server's.
	 */
	private static final class Listening extends HttpServer {

		private final HttpServer server;

		Listening(HttpServer server) {
			this.server = server;
		}

		@Override
		public HttpServerConfig configuration() {
			return this.server.configuration();
		}

		@Override
		protected HttpServer duplicate() {
			// A server's copy is protected; setting its bind address to itself is the
			// public way to get one.
			Supplier<? extends SocketAddress> address = Objects.requireNonNull(configuration().bindAddress());
			return new Listening(this.server.bindAddress(address));
		}

		@Override
		public Mono<? extends DisposableServer> bind() {
			Supplier<? extends SocketAddress> address = configuration().bindAddress();
			List<EventLoop> loops = acceptingLoops(configuration());
			if (loops.isEmpty() || address == null || !(address.get() instanceof InetSocketAddress)) {
				return this.server.bind();
			}
			List<DisposableServer> bound = new CopyOnWriteArrayList<>();
			return listener(loops.get(0), address).bind()
				.doOnNext(bound::add)
				.flatMap(first -> Flux.fromIterable(loops.subList(1, loops.size()))
					.concatMap(loop -> listener(loop, first::address).bind().doOnNext(bound::add))
					.then(Mono.fromSupplier(() -> new Listeners(List.copyOf(bound)))))
				// A listener that could not be bound closes those that were.
				.doOnError(error -> bound.forEach(DisposableServer::dispose))
				.doOnCancel(() -> bound.forEach(DisposableServer::dispose));
		}

		/**
		 * The server as one listener, accepting on one loop and keeping its connections
		 * there.
		 */
		private HttpServer listener(EventLoop loop, Supplier<? extends SocketAddress> address) {
			LoopResources onLoop = useNative -> loop;
			return this.server.runOn(onLoop, configuration().isPreferNative())
				.option(EpollChannelOption.SO_REUSEPORT, true)
				.bindAddress(address);
		}

		@Override
		public String toString() {
			return "PerLoopListeners[" + this.server + "]";
		}

	}

	/**
	 * The listeners of one server as one: the first's address and channel, disposed
	 * together.
	 */
	private record Listeners(List<DisposableServer> listeners) implements DisposableServer {

		private DisposableServer first() {
			return this.listeners.get(0);
		}

		@Override
		public Channel channel() {
			return first().channel();
		}

		@Override
		public SocketAddress address() {
			return first().address();
		}

		@Override
		public String host() {
			return first().host();
		}

		@Override
		public int port() {
			return first().port();
		}

		@Override
		public String path() {
			return first().path();
		}

		@Override
		public void dispose() {
			this.listeners.forEach(DisposableServer::dispose);
		}

		/**
		 * Closes every listening socket, then waits, as the first listener's disposal
		 * does, for the requests in flight on the server's connections (all listeners
		 * share its channel group). The others are closed first and waited for, so that
		 * none accepts a connection the wait does not see.
		 */
		@Override
		public void disposeNow(Duration timeout) {
			List<DisposableServer> others = this.listeners.subList(1, this.listeners.size());
			others.forEach(DisposableServer::dispose);
			long start = System.nanoTime();
			Mono.when(others.stream().map(DisposableServer::onDispose).toList()).block(timeout);
			Duration left = timeout.minusNanos(System.nanoTime() - start);
			first().disposeNow(left.isNegative() ? Duration.ZERO : left);
		}

		@Override
		public boolean isDisposed() {
			return this.listeners.stream().allMatch(DisposableServer::isDisposed);
		}

		@Override
		public Mono<Void> onDispose() {
			return Mono.when(this.listeners.stream().map(DisposableServer::onDispose).toList());
		}

	}

}
