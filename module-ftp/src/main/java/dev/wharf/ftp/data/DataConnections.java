package dev.wharf.ftp.data;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.ftp.tls.FtpTls;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.internal.PlatformDependent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.NettyInbound;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * Every data connection of the FTP server: a few Netty event loops shared by all
 * transfers (no thread per transfer), the passive ports, and connections to clients in
 * active mode.
 *
 * <p>
 * A passive port is not tied to one session: it listens while sessions wait on it and
 * serves every session whose client asked for it, matching an incoming connection to the
 * session by the client's address. So ten ports serve hundreds of concurrent transfers;
 * only two sessions from the same address cannot wait on the same port at the same time.
 * Connections from an address that no session is waiting for are closed at once. A port
 * that is listening is handed out before one that is not, so transfers one after another
 * share one listener. A port that no session has waited on for a moment stops listening
 * (a burst of transfers from one address must not leave hundreds of ports open after it),
 * and listens again for the next session that asks.
 *
 * <p>
 * Thread-safe. {@link #reservePassive} may bind a socket and must not run on an event
 * loop.
 */
public final class DataConnections implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(DataConnections.class);

	private static final String TLS_HANDLER = "wharf-ftp-tls";

	private final String bindAddress;

	private final PassivePortRange ports;

	/**
	 * Whether data connections use Netty's native (epoll) transport. They use Java NIO
	 * instead: once the peer closes, the epoll transport reads everything the kernel
	 * still holds for the connection whatever {@code autoRead} says (its
	 * {@code EPOLLRDHUP} handling), so uploads that finished sending while the disk
	 * lagged were read into memory at once: 300 concurrent {@code STOR}s to an ext4
	 * folder held 60 MiB of read buffers, exhausted direct memory and failed with
	 * {@code 426}. NIO reads only when asked, so an upload holds what the storage asked
	 * for and the rest waits in the kernel. The 300-upload row ran at the same speed and
	 * CPU time on both (docs/benchmarks/ftp.md).
	 */
	static final boolean NATIVE_TRANSPORT = false;

	/**
	 * How long a passive port goes on listening after the last session that waited on it
	 * got its connection or gave the port up. Transfers one after another (a client's
	 * next file, the next of hundreds of sessions) find it listening: opening a listener
	 * for each transfer and closing it once the connection arrived made the {@code PASV}s
	 * of 300 sessions one after another take 0.7-1.1 s in all, against pyftpdlib's 0.03 s
	 * (docs/benchmarks/ftp.md). While nobody waits on it, the port closes every
	 * connection at once.
	 */
	static final Duration LINGER = Duration.ofSeconds(2);

	private final Duration timeout;

	private final @Nullable FtpTls tls;

	private final LoopResources loops;

	private final Scheduler files;

	private final Map<Integer, PassivePort> passivePorts = new ConcurrentHashMap<>();

	// A quarter of direct memory, at most 16 MiB, for the read buffers of all uploads
	// together.
	private final ReceiveBudget receiveBudget = new ReceiveBudget(
			Math.min(16L * 1024 * 1024, Math.max(1024L * 1024, PlatformDependent.maxDirectMemory() / 4)));

	private volatile boolean closed;

	/**
	 * Creates the data side; nothing is bound until a client asks.
	 * @param bindAddress where passive ports listen, such as {@code 0.0.0.0}
	 * @param ports the passive ports
	 * @param timeout how long a client may take to connect, and a connection may go
	 * without progress
	 * @param tls TLS for {@code PROT P} sessions, or {@code null}
	 * @param eventLoops the number of event loop threads
	 */
	public DataConnections(String bindAddress, PassivePortRange ports, Duration timeout, @Nullable FtpTls tls,
			int eventLoops) {
		this.bindAddress = bindAddress;
		this.ports = ports;
		this.timeout = timeout;
		this.tls = tls;
		// One thread of its own accepts passive connections, so a burst of transfers
		// cannot delay them.
		this.loops = LoopResources.create("wharf-ftp-data", 1, eventLoops, true);
		int fileThreads = Math.max(2, eventLoops);
		this.files = BlockingScheduler.create("wharf-ftp-files", fileThreads, fileThreads * 10_000);
	}

	/**
	 * How long a client may take to connect, and a connection may go without progress.
	 */
	public Duration timeout() {
		return this.timeout;
	}

	/**
	 * Promises a passive port to a session.
	 * @param client the session's client address: the only one allowed to connect
	 * @param secure whether the connection will be encrypted
	 * @return the reservation
	 * @throws IOException if no port is free for this client
	 */
	public PassiveReservation reservePassive(InetAddress client, boolean secure) throws IOException {
		if (this.closed) {
			throw new IOException("The FTP server is stopping");
		}
		if (this.ports.isAny()) {
			return reserveEphemeral(client, secure);
		}
		// The ports listening now first: bind() returns at once for them, unless one
		// stopped meanwhile.
		List<PassivePort> listening = this.passivePorts.values().stream().filter(PassivePort::isListening).toList();
		int size = this.ports.size();
		int start = ThreadLocalRandom.current().nextInt(size);
		IOException failure = null;
		for (int i = 0; i < listening.size() + size; i++) {
			PassivePort passive = (i < listening.size()) ? listening.get(i) : this.passivePorts
				.computeIfAbsent(this.ports.get((start + i - listening.size()) % size), PassivePort::new);
			PassiveReservation reservation = passive.reserve(client, secure);
			if (reservation == null) {
				continue;
			}
			try {
				passive.bind();
				return expiring(reservation);
			}
			catch (IOException | RuntimeException ex) {
				reservation.cancel();
				failure = (ex instanceof IOException io) ? io : new IOException(ex.getMessage(), ex);
			}
		}
		throw (failure != null) ? failure : new IOException(
				"All " + size + " passive ports are waiting for other connections from " + client.getHostAddress());
	}

	private PassiveReservation reserveEphemeral(InetAddress client, boolean secure) throws IOException {
		AtomicReference<@Nullable PassiveReservation> holder = new AtomicReference<>();
		DisposableServer server;
		try {
			server = listener(0, remote -> {
				PassiveReservation reservation = holder.get();
				return (reservation != null && reservation.client().equals(remote)) ? reservation : null;
			}).bindNow(this.timeout);
		}
		catch (RuntimeException ex) {
			throw new IOException("Cannot open a passive port: " + ex.getMessage(), ex);
		}
		// One listener per transfer: it stops listening once its connection arrived or
		// the port is given up.
		PassiveReservation reservation = new PassiveReservation(server.port(), client, secure, this, server::dispose);
		holder.set(reservation);
		return expiring(reservation);
	}

	private PassiveReservation expiring(PassiveReservation reservation) {
		reservation.expireAfter(
				Schedulers.parallel().schedule(reservation::cancel, this.timeout.toMillis(), TimeUnit.MILLISECONDS));
		return reservation;
	}

	private TcpServer listener(int port, ReservationLookup lookup) {
		return TcpServer.create()
			.runOn(this.loops, NATIVE_TRANSPORT)
			.host(this.bindAddress)
			.port(port)
			// A port listens again while connections it accepted before are open or in
			// TIME_WAIT.
			.option(ChannelOption.SO_REUSEADDR, true)
			.childOption(ChannelOption.AUTO_READ, false)
			.doOnChannelInit((observer, channel, ignored) -> {
				PassiveReservation reservation = (channel.remoteAddress() instanceof InetSocketAddress address)
						? lookup.find(address.getAddress()) : null;
				configure(channel, reservation != null && reservation.isSecure());
			})
			.handle((in, out) -> accept(in, lookup));
	}

	private Mono<Void> accept(NettyInbound in, ReservationLookup lookup) {
		Connection[] connection = new Connection[1];
		in.withConnection(c -> connection[0] = c);
		SocketAddress remote = connection[0].channel().remoteAddress();
		PassiveReservation reservation = (remote instanceof InetSocketAddress address)
				? lookup.find(address.getAddress()) : null;
		if (reservation == null) {
			logger.debug("Refused a passive data connection from " + remote + ": no session is waiting for it");
			return Mono.empty();
		}
		return reservation.accept(connection[0]);
	}

	/**
	 * Connects to a client in active mode.
	 * @param client the client's address and port, already checked against the control
	 * connection
	 * @param local the server's address on the control connection, to connect from
	 * @param secure whether the connection is encrypted
	 * @return the data channel, once connected
	 */
	public Mono<DataChannel> connectActive(InetSocketAddress client, InetAddress local, boolean secure) {
		return TcpClient.newConnection()
			.runOn(this.loops, NATIVE_TRANSPORT)
			.noProxy()
			.remoteAddress(() -> client)
			.bindAddress(() -> new InetSocketAddress(local, 0))
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, this.timeout.toMillis()))
			.option(ChannelOption.AUTO_READ, false)
			.doOnChannelInit((observer, channel, remote) -> configure(channel, secure))
			.connect()
			.map(connection -> channel(connection, secure));
	}

	private void configure(Channel channel, boolean secure) {
		// Receive buffers come from a pool and are sized by a budget shared by all
		// uploads: hundreds of concurrent
		// uploads stay within a small part of direct memory.
		channel.config().setAllocator(this.receiveBudget.buffers());
		channel.config().setRecvByteBufAllocator(this.receiveBudget.allocator());
		ChannelPipeline pipeline = channel.pipeline();
		long idle = this.timeout.toMillis();
		pipeline.addFirst(DataChannelWatch.NAME, new DataChannelWatch());
		pipeline.addFirst("wharf-ftp-idle", new IdleStateHandler(true, 0, 0, idle, TimeUnit.MILLISECONDS));
		if (secure) {
			if (this.tls == null) {
				throw new IllegalStateException("TLS is not configured");
			}
			pipeline.addFirst(TLS_HANDLER, this.tls.newDataHandler(this.timeout));
		}
	}

	DataChannel channel(Connection connection, boolean secure) {
		return new DataChannel(connection, secure, this.files, this.receiveBudget);
	}

	/** Closes every passive port and stops the event loops. */
	@Override
	public void close() {
		this.closed = true;
		for (PassivePort port : this.passivePorts.values()) {
			port.close();
		}
		this.passivePorts.clear();
		this.loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block(Duration.ofSeconds(10));
		this.files.dispose();
	}

	@FunctionalInterface
	private interface ReservationLookup {

		@Nullable PassiveReservation find(InetAddress client);

	}

	private static final int REBIND_ATTEMPTS = 20;

	private static final Duration REBIND_PAUSE = Duration.ofMillis(10);

	private static boolean addressInUse(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof BindException) {
				return true;
			}
		}
		return false;
	}

	private static void pause(Duration time) throws IOException {
		try {
			Thread.sleep(time.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while opening a passive port", ex);
		}
	}

	/**
	 * One configured passive port: its listener (bound while sessions wait) and the
	 * sessions waiting on it.
	 */
	private final class PassivePort {

		private final int port;

		private final Map<InetAddress, PassiveReservation> waiting = new ConcurrentHashMap<>();

		private volatile @Nullable DisposableServer server;

		// When the last session that waited on it left (System.nanoTime()).
		private volatile long idleSince;

		// Whether a look at whether to stop listening is due.
		private final AtomicBoolean closeScheduled = new AtomicBoolean();

		// A listener being closed: the port can be bound again once its socket is closed.
		private @Nullable DisposableServer closing;

		PassivePort(int port) {
			this.port = port;
		}

		@Nullable PassiveReservation reserve(InetAddress client, boolean secure) {
			PassiveReservation[] created = new PassiveReservation[1];
			this.waiting.computeIfAbsent(client, address -> {
				created[0] = new PassiveReservation(this.port, address, secure, DataConnections.this, () -> {
					if (this.waiting.remove(address, created[0])) {
						this.idleSince = System.nanoTime();
						closeLater(LINGER.toNanos());
					}
				});
				return created[0];
			});
			return created[0];
		}

		boolean isListening() {
			return this.server != null;
		}

		synchronized void bind() throws IOException {
			if (this.server != null) {
				return;
			}
			DisposableServer closed = this.closing;
			boolean reopening = closed != null;
			if (closed != null) {
				closed.onDispose().onErrorComplete().block(DataConnections.this.timeout);
				this.closing = null;
			}
			for (int attempt = 1;; attempt++) {
				try {
					this.server = listener(this.port, this.waiting::get).bindNow(DataConnections.this.timeout);
					return;
				}
				catch (RuntimeException ex) {
					// NIO releases a closed listener's socket only at its selector's next
					// turn, after the close was
					// reported: a port listening again right after it stopped may find
					// itself still taken.
					if (!reopening || attempt == REBIND_ATTEMPTS || !addressInUse(ex)) {
						throw new IOException("Cannot listen on passive port " + this.port + ": " + ex.getMessage(),
								ex);
					}
					pause(REBIND_PAUSE);
				}
			}
		}

		/**
		 * Looks after a while whether to stop listening; at most one look is due at a
		 * time. Runs on event loops too (a connection arrived): the lock that
		 * {@link #closeIfUnused} takes is for the files' threads.
		 */
		private void closeLater(long nanos) {
			if (!this.closeScheduled.compareAndSet(false, true)) {
				return;
			}
			Schedulers.parallel().schedule(() -> {
				try {
					DataConnections.this.files.schedule(this::closeIfUnused);
				}
				catch (RejectedExecutionException stopping) {
					// The server is stopping: close() closes every port.
				}
			}, nanos, TimeUnit.NANOSECONDS);
		}

		/**
		 * Stops listening if no session has waited on it for {@link #LINGER}; a session
		 * that asks meanwhile binds it again.
		 */
		synchronized void closeIfUnused() {
			this.closeScheduled.set(false);
			DisposableServer bound = this.server;
			if (bound == null || !this.waiting.isEmpty()) {
				// The session waiting now looks again when it leaves.
				return;
			}
			long idle = System.nanoTime() - this.idleSince;
			if (idle < LINGER.toNanos()) {
				closeLater(LINGER.toNanos() - idle);
				return;
			}
			this.server = null;
			this.closing = bound;
			bound.dispose();
		}

		synchronized void close() {
			DisposableServer bound = this.server;
			if (bound != null) {
				bound.disposeNow(Duration.ofSeconds(5));
				this.server = null;
			}
			this.waiting.values().forEach(PassiveReservation::cancel);
		}

	}

}
