package dev.wharf.ftp.engine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

import dev.wharf.core.security.Audit;
import dev.wharf.ftp.data.DataConnections;
import dev.wharf.ftp.tls.FtpTls;
import org.apache.ftpserver.DataConnectionConfigurationFactory;
import org.apache.ftpserver.FtpServerConfigurationException;
import org.apache.ftpserver.impl.FtpIoSession;
import org.apache.ftpserver.impl.FtpServerContext;
import org.apache.ftpserver.listener.nio.AbstractListener;
import org.apache.ftpserver.listener.nio.FtpResponseEncoder;
import org.apache.mina.core.session.IdleStatus;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolCodecFactory;
import org.apache.mina.filter.codec.ProtocolCodecFilter;
import org.apache.mina.filter.codec.ProtocolDecoder;
import org.apache.mina.filter.codec.ProtocolEncoder;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.jspecify.annotations.Nullable;

/**
 * The control port, on MINA like Apache FtpServer's own listener but with Wharf's pieces:
 * a strict line decoder, no executor filter (command lines are handed to the
 * {@link CommandRunner}'s bounded threads, so MINA's I/O threads never wait), Wharf's
 * {@link ControlHandler}, and implicit TLS from {@link FtpTls}.
 */
final class ControlListener extends AbstractListener {

	private final int idleSeconds;

	private final ConnectionLimits limits;

	private final DataConnections data;

	private final ExecutorService commandThreads;

	private final boolean tlsRequired;

	private final @Nullable ControlTls tls;

	private final boolean implicitTls;

	private final Audit audit;

	private @Nullable NioSocketAcceptor acceptor;

	private @Nullable FtpServerContext context;

	private volatile boolean suspended;

	ControlListener(Settings settings) {
		this(settings, (settings.tls() != null) ? new ControlTls(settings.tls()) : null);
	}

	private ControlListener(Settings settings, @Nullable ControlTls tls) {
		super(settings.address(), settings.port(), settings.implicitTls(), tls,
				new DataConnectionConfigurationFactory().createDataConnectionConfiguration(), settings.idleSeconds(),
				null);
		this.idleSeconds = settings.idleSeconds();
		this.limits = new ConnectionLimits(settings.maxConnections(), settings.maxConnectionsPerAddress());
		this.data = settings.data();
		this.commandThreads = settings.commandThreads();
		this.tlsRequired = settings.tlsRequired();
		this.tls = tls;
		this.implicitTls = settings.implicitTls();
		this.audit = settings.audit();
	}

	@Override
	public synchronized void start(FtpServerContext serverContext) {
		if (this.acceptor != null) {
			throw new IllegalStateException("The FTP listener is already started");
		}
		NioSocketAcceptor created = new NioSocketAcceptor(Math.max(1, Runtime.getRuntime().availableProcessors()));
		created.setReuseAddress(true);
		created.getSessionConfig().setReadBufferSize(2048);
		created.getSessionConfig().setTcpNoDelay(true);
		created.getSessionConfig().setIdleTime(IdleStatus.BOTH_IDLE, this.idleSeconds);
		created.getFilterChain()
			.addLast("codec", new ProtocolCodecFilter(new ControlCodec(Duration.ofSeconds(this.idleSeconds))));
		CommandRunner runner = new CommandRunner(this.commandThreads, this.tlsRequired, serverContext);
		created.setHandler(new ControlHandler(serverContext, this, runner, this.limits, this.data,
				this.implicitTls ? this.tls : null, this.audit, Duration.ofSeconds(this.idleSeconds)));
		InetSocketAddress address = new InetSocketAddress(getServerAddress(), getPort());
		try {
			created.bind(address);
		}
		catch (IOException ex) {
			created.dispose();
			throw new FtpServerConfigurationException("Cannot listen on " + address + ": " + ex.getMessage(), ex);
		}
		setPort(created.getLocalAddress().getPort());
		this.acceptor = created;
		this.context = serverContext;
	}

	@Override
	public synchronized void stop() {
		NioSocketAcceptor bound = this.acceptor;
		if (bound != null) {
			bound.unbind();
			for (IoSession session : bound.getManagedSessions().values()) {
				session.closeNow();
			}
			bound.dispose(true);
			this.acceptor = null;
		}
		this.context = null;
	}

	@Override
	public synchronized boolean isStopped() {
		return this.acceptor == null;
	}

	@Override
	public synchronized void suspend() {
		NioSocketAcceptor bound = this.acceptor;
		if (bound != null && !this.suspended) {
			bound.unbind();
			this.suspended = true;
		}
	}

	@Override
	public synchronized void resume() {
		NioSocketAcceptor bound = this.acceptor;
		if (bound != null && this.suspended) {
			try {
				bound.bind(new InetSocketAddress(getServerAddress(), getPort()));
				this.suspended = false;
			}
			catch (IOException ex) {
				throw new FtpServerConfigurationException("Cannot listen again on port " + getPort(), ex);
			}
		}
	}

	@Override
	public boolean isSuspended() {
		return this.suspended;
	}

	@Override
	public synchronized Set<FtpIoSession> getActiveSessions() {
		Set<FtpIoSession> sessions = new HashSet<>();
		NioSocketAcceptor bound = this.acceptor;
		FtpServerContext current = this.context;
		if (bound != null && current != null) {
			for (Map.Entry<Long, IoSession> session : bound.getManagedSessions().entrySet()) {
				sessions.add(new FtpIoSession(session.getValue(), current));
			}
		}
		return sessions;
	}

	/** How many control connections are open. */
	int openConnections() {
		return this.limits.open();
	}

	/**
	 * Wharf's decoder (one per connection; a line must be complete within the idle
	 * timeout from its first byte) and FtpServer's reply encoder.
	 */
	static final class ControlCodec implements ProtocolCodecFactory {

		private static final String DECODER = ControlCodec.class.getName() + ".decoder";

		private final ProtocolEncoder encoder = new FtpResponseEncoder();

		private final Duration lineDeadline;

		ControlCodec(Duration lineDeadline) {
			this.lineDeadline = lineDeadline;
		}

		@Override
		public ProtocolEncoder getEncoder(IoSession session) {
			return this.encoder;
		}

		/**
		 * The session's decoder. MINA asks for it on every read, and the decoder holds
		 * the session's partial line (its buffer is keyed to the decoder instance), so it
		 * must be the same one on every read, or a line that arrives in two reads would
		 * lose its start.
		 */
		@Override
		public ProtocolDecoder getDecoder(IoSession session) {
			Object decoder = session.getAttribute(DECODER);
			if (decoder == null) {
				ControlLineDecoder created = new ControlLineDecoder(this.lineDeadline);
				decoder = session.setAttributeIfAbsent(DECODER, created);
				if (decoder == null) {
					decoder = created;
				}
			}
			return (ProtocolDecoder) decoder;
		}

	}

	/**
	 * What the listener needs.
	 *
	 * @param address where to listen
	 * @param port the port, 0 for any
	 * @param idleSeconds control connection idle timeout
	 * @param maxConnections most connections
	 * @param maxConnectionsPerAddress most connections from one address
	 * @param data the data connections
	 * @param commandThreads the bounded command threads
	 * @param tls TLS, or {@code null}
	 * @param implicitTls whether the port speaks TLS from the first byte
	 * @param tlsRequired whether logins and data need TLS
	 * @param audit records logouts
	 */
	record Settings(String address, int port, int idleSeconds, int maxConnections, int maxConnectionsPerAddress,
			DataConnections data, ExecutorService commandThreads, @Nullable FtpTls tls, boolean implicitTls,
			boolean tlsRequired, Audit audit) {
	}

}
