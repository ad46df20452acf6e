package dev.wharf.ftp.session;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import dev.wharf.ftp.data.DataChannel;
import dev.wharf.ftp.data.DataConnections;
import dev.wharf.ftp.data.PassiveReservation;
import org.apache.ftpserver.DataConnectionException;
import org.apache.ftpserver.ftplet.DataConnection;
import org.apache.ftpserver.impl.ServerDataConnectionFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * One session's data connection set-up, in the place Apache FtpServer keeps it: the protection level
 * ({@code PROT}), and the passive port or active address of the next transfer. Each {@code PASV}, {@code EPSV},
 * {@code PORT} or {@code EPRT} serves one transfer. Wharf's transfer commands open the connection with
 * {@link #open()}; FtpServer's blocking {@link #openConnection()} is not used.
 *
 * <p>Thread-safe.
 */
public final class SessionDataConnection implements ServerDataConnectionFactory {

	private final DataConnections connections;

	private final InetSocketAddress control;

	private final InetSocketAddress client;

	private volatile boolean secure;

	private @Nullable PassiveReservation passive;

	private @Nullable InetSocketAddress active;

	/**
	 * Creates the set-up of a session.
	 * @param connections the server's data connections
	 * @param control the server's end of the control connection
	 * @param client the client's end of the control connection
	 */
	public SessionDataConnection(DataConnections connections, InetSocketAddress control, InetSocketAddress client) {
		this.connections = connections;
		this.control = control;
		this.client = client;
	}

	/** The server's end of the control connection. */
	public InetSocketAddress controlAddress() {
		return this.control;
	}

	/** The client's end of the control connection. */
	public InetSocketAddress clientAddress() {
		return this.client;
	}

	/**
	 * Promises a passive port to this session, giving up any earlier set-up.
	 * @return the server's address on the control connection and the passive port
	 * @throws DataConnectionException if no port is free
	 */
	@Override
	public synchronized InetSocketAddress initPassiveDataConnection() throws DataConnectionException {
		closeDataConnection();
		try {
			PassiveReservation reservation = this.connections.reservePassive(this.client.getAddress(), this.secure);
			this.passive = reservation;
			return new InetSocketAddress(this.control.getAddress(), reservation.port());
		}
		catch (IOException ex) {
			throw new DataConnectionException(ex.getMessage(), ex);
		}
	}

	/**
	 * Sets the client address for the next transfer in active mode, giving up any earlier set-up. The caller
	 * has checked the address.
	 * @param address the client's data address
	 */
	@Override
	public synchronized void initActiveDataConnection(InetSocketAddress address) {
		closeDataConnection();
		this.active = address;
	}

	/** Whether {@code PASV}, {@code EPSV}, {@code PORT} or {@code EPRT} set up the next transfer. */
	public synchronized boolean isReady() {
		return this.passive != null || this.active != null;
	}

	/**
	 * Opens the data connection for one transfer, using up the set-up.
	 * @return the connection, once the client connected (passive) or was reached (active)
	 */
	public synchronized Mono<DataChannel> open() {
		PassiveReservation reservation = this.passive;
		InetSocketAddress target = this.active;
		this.passive = null;
		this.active = null;
		if (reservation != null) {
			return reservation.connection(this.connections.timeout())
				.doOnError(error -> reservation.cancel())
				.doOnCancel(reservation::cancel);
		}
		if (target != null) {
			return this.connections.connectActive(target, this.control.getAddress(), this.secure);
		}
		return Mono.error(new IllegalStateException("PORT or PASV must come first"));
	}

	/** Whether the set-up was made while {@code PROT P} was in force (a passive port keeps the level it had). */
	public synchronized boolean isPendingSecure() {
		return (this.passive != null) ? this.passive.isSecure() : this.secure;
	}

	/**
	 * Not used: Wharf's transfer commands open connections with {@link #open()}.
	 * @throws DataConnectionException always
	 */
	@Override
	public DataConnection openConnection() throws DataConnectionException {
		throw new DataConnectionException("Data connections are opened by Wharf's transfer commands");
	}

	@Override
	public boolean isSecure() {
		return this.secure;
	}

	@Override
	public void setSecure(boolean secure) {
		this.secure = secure;
	}

	/** Gives up the pending set-up and closes a connection that arrived for it. */
	@Override
	public synchronized void closeDataConnection() {
		PassiveReservation reservation = this.passive;
		if (reservation != null) {
			reservation.cancel();
		}
		this.passive = null;
		this.active = null;
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
		closeDataConnection();
	}

	@Override
	public synchronized @Nullable InetAddress getInetAddress() {
		if (this.active != null) {
			return this.active.getAddress();
		}
		return (this.passive != null) ? this.control.getAddress() : null;
	}

	@Override
	public synchronized int getPort() {
		if (this.active != null) {
			return this.active.getPort();
		}
		return (this.passive != null) ? this.passive.port() : 0;
	}

}
