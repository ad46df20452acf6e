package dev.wharf.ftp.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;

import dev.wharf.ftp.command.WharfCommands;
import dev.wharf.ftp.data.DataConnections;
import dev.wharf.ftp.tls.FtpTls;
import org.apache.ftpserver.ConnectionConfigFactory;
import org.apache.ftpserver.ftplet.FtpException;
import org.apache.ftpserver.impl.DefaultFtpServer;
import org.apache.ftpserver.impl.DefaultFtpServerContext;
import org.jspecify.annotations.Nullable;

/**
 * The control protocol on Apache FtpServer and MINA, with Wharf's listener, line decoder,
 * command dispatch, commands and reply texts. The only place that starts FtpServer; data
 * connections are Wharf's own. Started once and stopped once; thread-safe.
 */
public final class FtpEngine {

	private final DefaultFtpServer server;

	private final ControlListener listener;

	private FtpEngine(DefaultFtpServer server, ControlListener listener) {
		this.server = server;
		this.listener = listener;
	}

	/**
	 * Starts listening.
	 * @param settings what the engine needs
	 * @return the running engine
	 * @throws IllegalStateException if the port cannot be bound or FtpServer does not
	 * start
	 */
	public static FtpEngine start(Settings settings) {
		MinaLogging.quietRepeats();
		DefaultFtpServerContext context = new DefaultFtpServerContext();
		context.setMessageResource(new WharfMessages());
		context.setCommandFactory(new EngineCommands(settings.commands()));
		ConnectionConfigFactory connections = new ConnectionConfigFactory();
		connections.setAnonymousLoginEnabled(false);
		connections.setMaxLogins(settings.maxConnections());
		connections.setLoginFailureDelay(0);
		context.setConnectionConfig(connections.createConnectionConfig());
		ControlListener listener = new ControlListener(new ControlListener.Settings(settings.address(), settings.port(),
				settings.idleSeconds(), settings.maxConnections(), settings.maxConnectionsPerAddress(), settings.data(),
				settings.commandThreads(), settings.tls(), settings.implicitTls(), settings.commands().tlsRequired(),
				settings.commands().audit()));
		// FtpServer clears the map when it stops, so it must be mutable.
		context.setListeners(new HashMap<>(Map.of("default", listener)));
		DefaultFtpServer server = new DefaultFtpServer(context);
		try {
			server.start();
		}
		catch (FtpException | RuntimeException ex) {
			throw new IllegalStateException("The FTP server could not start: " + ex.getMessage(), ex);
		}
		return new FtpEngine(server, listener);
	}

	/** Stops listening and closes every control connection. */
	public void stop() {
		this.server.stop();
	}

	/** The control port (useful with port 0). */
	public int port() {
		return this.listener.getPort();
	}

	/** How many control connections are open. */
	public int openConnections() {
		return this.listener.openConnections();
	}

	/**
	 * What the engine needs.
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
	 * @param commands what Wharf's commands depend on
	 */
	public record Settings(String address, int port, int idleSeconds, int maxConnections, int maxConnectionsPerAddress,
			DataConnections data, ExecutorService commandThreads, @Nullable FtpTls tls, boolean implicitTls,
			WharfCommands.Settings commands) {
	}

}
