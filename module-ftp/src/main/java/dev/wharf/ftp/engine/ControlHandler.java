package dev.wharf.ftp.engine;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import dev.wharf.core.concurrent.Disconnects;
import dev.wharf.core.security.Audit;
import dev.wharf.ftp.data.DataConnections;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import dev.wharf.ftp.session.SessionContext;
import dev.wharf.ftp.session.SessionDataConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.ftpserver.ftplet.User;
import org.apache.ftpserver.impl.FtpIoSession;
import org.apache.ftpserver.impl.FtpServerContext;
import org.apache.ftpserver.listener.Listener;
import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IdleStatus;
import org.apache.mina.core.session.IoSession;
import org.jspecify.annotations.Nullable;

/**
 * MINA's handler for control connections: enforces the connection limits, sets up each
 * session (Wharf's data connections, implicit TLS), greets, hands command lines to the
 * {@link CommandRunner}, and closes idle sessions, but never one with a transfer running.
 * A client that has not logged in within the login deadline (the idle timeout) is closed
 * at its next command, so {@code NOOP}s cannot hold an anonymous connection for ever.
 * Every method runs on a MINA I/O thread and does not block.
 */
final class ControlHandler extends IoHandlerAdapter {

	private static final Log logger = LogFactory.getLog(ControlHandler.class);

	/** Where Apache FtpServer looks for a session's data connection set-up. */
	private static final String DATA_CONNECTION = FtpIoSession.ATTRIBUTE_PREFIX + "data-connection";

	private static final String COUNTED = ControlHandler.class.getName() + ".counted";

	private final FtpServerContext context;

	private final Listener listener;

	private final CommandRunner runner;

	private final ConnectionLimits limits;

	private final DataConnections data;

	private final @Nullable ControlTls implicitTls;

	private final Audit audit;

	private final long loginDeadlineMillis;

	ControlHandler(FtpServerContext context, Listener listener, CommandRunner runner, ConnectionLimits limits,
			DataConnections data, @Nullable ControlTls implicitTls, Audit audit, Duration loginDeadline) {
		this.loginDeadlineMillis = loginDeadline.toMillis();
		this.context = context;
		this.listener = listener;
		this.runner = runner;
		this.limits = limits;
		this.data = data;
		this.implicitTls = implicitTls;
		this.audit = audit;
	}

	@Override
	public void sessionCreated(IoSession session) {
		if (!(session.getRemoteAddress() instanceof InetSocketAddress client)
				|| !(session.getLocalAddress() instanceof InetSocketAddress local)) {
			session.closeNow();
			return;
		}
		if (!this.limits.tryOpen(client.getAddress())) {
			return;
		}
		session.setAttribute(COUNTED, client.getAddress());
		// Cleaned up when the session is gone, however it closed: MINA's TLS filter does
		// not pass sessionClosed on
		// after a handshake it refused (an old protocol, say), and such a connection
		// would keep its place in the
		// connection limits for ever.
		session.getCloseFuture().addListener(closed -> released(session));
		FtpIoSession ftp = new FtpIoSession(session, this.context);
		ftp.setListener(this.listener);
		SessionDataConnection connection = new SessionDataConnection(this.data, local, client);
		session.setAttribute(DATA_CONNECTION, new EngineDataConnection(connection));
		EngineSession.attach(session, new SessionContext(connection, () -> this.runner.resume(session)));
		if (this.implicitTls != null) {
			session.getFilterChain().addFirst("sslSessionFilter", this.implicitTls.newFilter());
		}
	}

	@Override
	public void sessionOpened(IoSession session) {
		if (session.getAttribute(COUNTED) == null) {
			EngineSession.write(session, Reply.of(421, "Too many connections; try again later."));
			session.closeOnFlush();
			return;
		}
		EngineSession.write(session, Reply.of(220, "Wharf FTP server ready."));
	}

	@Override
	public void messageReceived(IoSession session, Object message) {
		if (session.getAttribute(COUNTED) == null) {
			return;
		}
		if (message instanceof ControlLineDecoder.BadLine bad) {
			EngineSession.write(session, Reply.of(bad.code(), bad.text()));
			if (bad.closes()) {
				session.closeOnFlush();
			}
			return;
		}
		if (System.currentTimeMillis() - session.getCreationTime() > this.loginDeadlineMillis
				&& new FtpIoSession(session, this.context).getUser() == null) {
			EngineSession.write(session, Reply.of(421, "Not logged in in time; closing the connection."));
			session.closeOnFlush();
			return;
		}
		this.runner.received(session, new CommandLine((String) message));
	}

	@Override
	public void sessionIdle(IoSession session, IdleStatus status) {
		SessionContext state = EngineSession.findContext(session);
		if (state != null && state.active() != null) {
			return;
		}
		EngineSession.write(session, Reply.of(421, "Idle timeout; closing the connection."));
		session.closeOnFlush();
	}

	private void released(IoSession session) {
		Object counted = session.removeAttribute(COUNTED);
		if (counted == null) {
			return;
		}
		this.limits.release((InetAddress) counted);
		EngineSession.contextOf(session).close();
		User user = new FtpIoSession(session, this.context).getUser();
		if (user != null) {
			String client = ((InetAddress) counted).getHostAddress();
			this.audit.record(user.getName(), client, "logout", null, "success");
		}
	}

	/**
	 * Closes the session. A client going away (a reset, a broken pipe, a TLS handshake it
	 * refused or broke off) is one line at DEBUG; anything else is a fault of the
	 * server's and keeps its stack trace.
	 */
	@Override
	public void exceptionCaught(IoSession session, Throwable cause) {
		if (Disconnects.isOrdinary(cause)) {
			if (logger.isDebugEnabled()) {
				logger.debug("FTP control connection with " + session.getRemoteAddress() + " ended: "
						+ Disconnects.describe(cause));
			}
		}
		else {
			logger.warn("FTP control connection with " + session.getRemoteAddress() + " failed", cause);
		}
		session.closeNow();
	}

}
