package dev.wharf.ftp.server;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;

import dev.wharf.core.concurrent.NamedThreads;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.ftp.command.WharfCommands;
import dev.wharf.ftp.data.DataConnections;
import dev.wharf.ftp.engine.FtpEngine;
import dev.wharf.ftp.filesystem.StorageFileSystemFactory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * Wharf's FTP and FTPS server: the {@link FtpEngine} (Apache FtpServer) for the control
 * protocol, with Wharf's commands, file systems on the storage layer, logins through the
 * shared {@link Authenticator}, and Netty data connections.
 *
 * <p>
 * Threads: MINA's I/O threads (one per core) for control connections, a bounded pool of
 * command threads ({@code wharf-ftp-command-*}) that never wait on storage or network,
 * and a few Netty event loops ({@code wharf-ftp-data-*}) for every data connection;
 * storage backends use their own bounded pools.
 *
 * <p>
 * Started and stopped by Spring as a {@link SmartLifecycle}; thread-safe.
 */
public final class WharfFtpServer implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(WharfFtpServer.class);

	private final FtpServerConfig config;

	private final Authenticator authenticator;

	private final AuditLog audit;

	private @Nullable Running running;

	/**
	 * Creates the server; nothing listens until {@link #start()}.
	 * @param config the configuration
	 * @param authenticator logs users in
	 * @param audit the audit log
	 */
	public WharfFtpServer(FtpServerConfig config, Authenticator authenticator, AuditLog audit) {
		this.config = config;
		this.authenticator = authenticator;
		this.audit = audit;
	}

	@Override
	public synchronized void start() {
		if (this.running != null) {
			return;
		}
		FtpServerConfig c = this.config;
		int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
		DataConnections data = new DataConnections(c.address(), c.passivePorts(), c.dataTimeout(), c.tls(),
				Math.max(2, cores));
		ExecutorService commandThreads = commandThreads(Math.max(8, 4 * cores));
		StorageFileSystemFactory fileSystems = new StorageFileSystemFactory(c.mounts());
		boolean passthrough = c.mounts().stream().anyMatch(mount -> mount.storage().needsUserCredentials());
		WharfCommands.Settings commands = new WharfCommands.Settings(this.authenticator, fileSystems,
				WharfCommands.audit(this.audit), passthrough, c.tls() != null && !c.implicitTls(), c.tls() != null,
				c.tlsRequired(), c.activeMode(), c.externalAddress());
		FtpEngine engine;
		try {
			engine = FtpEngine.start(new FtpEngine.Settings(c.address(), c.port(),
					(int) Math.max(1, c.idleTimeout().toSeconds()), c.maxConnections(), c.maxConnectionsPerAddress(),
					data, commandThreads, c.tls(), c.implicitTls(), commands));
		}
		catch (RuntimeException ex) {
			data.close();
			commandThreads.shutdownNow();
			throw ex;
		}
		this.running = new Running(engine, data, commandThreads);
		logger.info("FTP server listening on " + c.address() + ":" + engine.port()
				+ ((c.tls() == null) ? "" : c.implicitTls() ? " (implicit FTPS)" : " (FTPS with AUTH TLS)"));
	}

	private static ExecutorService commandThreads(int threads) {
		return NamedThreads.pool("wharf-ftp-command", threads, Integer.MAX_VALUE, new ThreadPoolExecutor.AbortPolicy());
	}

	@Override
	public synchronized void stop() {
		Running current = this.running;
		if (current == null) {
			return;
		}
		this.running = null;
		current.engine().stop();
		current.data().close();
		current.commandThreads().shutdownNow();
	}

	@Override
	public synchronized boolean isRunning() {
		return this.running != null;
	}

	/**
	 * The control port, once started (useful with port 0).
	 * @return the port
	 * @throws IllegalStateException if the server is not running
	 */
	public synchronized int port() {
		Running current = this.running;
		if (current == null) {
			throw new IllegalStateException("The FTP server is not running");
		}
		return current.engine().port();
	}

	/** How many control connections are open. */
	public synchronized int openConnections() {
		Running current = this.running;
		return (current != null) ? current.engine().openConnections() : 0;
	}

	private record Running(FtpEngine engine, DataConnections data, ExecutorService commandThreads) {
	}

}
