package dev.wharf.ftp.engine;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import dev.wharf.ftp.session.SessionDataConnection;
import org.apache.ftpserver.DataConnectionException;
import org.apache.ftpserver.ftplet.DataConnection;
import org.apache.ftpserver.impl.ServerDataConnectionFactory;
import org.jspecify.annotations.Nullable;

/**
 * A session's {@link SessionDataConnection} where Apache FtpServer looks for the data
 * connection set-up, so that its own {@code PROT} sets the protection level of Wharf's
 * data connections. FtpServer's blocking {@link #openConnection()} is not used: Wharf's
 * transfer commands open connections themselves. Thread-safe.
 *
 * @param data the session's set-up
 */
record EngineDataConnection(SessionDataConnection data) implements ServerDataConnectionFactory {

	@Override
	public InetSocketAddress initPassiveDataConnection() throws DataConnectionException {
		try {
			return this.data.initPassiveDataConnection();
		}
		catch (IOException ex) {
			throw new DataConnectionException(ex.getMessage(), ex);
		}
	}

	@Override
	public void initActiveDataConnection(InetSocketAddress address) {
		this.data.initActiveDataConnection(address);
	}

	/**
	 * Not used: Wharf's transfer commands open connections with
	 * {@link SessionDataConnection#open()}.
	 * @throws DataConnectionException always
	 */
	@Override
	public DataConnection openConnection() throws DataConnectionException {
		throw new DataConnectionException("Data connections are opened by Wharf's transfer commands");
	}

	@Override
	public boolean isSecure() {
		return this.data.isSecure();
	}

	@Override
	public void setSecure(boolean secure) {
		this.data.setSecure(secure);
	}

	@Override
	public void closeDataConnection() {
		this.data.closeDataConnection();
	}

	/** Not used: the server's address comes from the control connection. */
	@Override
	public void setServerControlAddress(InetAddress serverControlAddress) {
	}

	/**
	 * Refuses {@code MODE Z}: only stream mode is offered.
	 * @param zip must be {@code false}
	 */
	@Override
	public void setZipMode(boolean zip) {
		if (zip) {
			throw new IllegalArgumentException("MODE Z is not supported");
		}
	}

	@Override
	public boolean isZipMode() {
		return false;
	}

	/** Timeouts are enforced on the connections themselves. */
	@Override
	public boolean isTimeout(long currTime) {
		return false;
	}

	@Override
	public void dispose() {
		this.data.closeDataConnection();
	}

	@Override
	public @Nullable InetAddress getInetAddress() {
		InetSocketAddress pending = this.data.pendingAddress();
		return (pending != null) ? pending.getAddress() : null;
	}

	@Override
	public int getPort() {
		InetSocketAddress pending = this.data.pendingAddress();
		return (pending != null) ? pending.getPort() : 0;
	}

}
