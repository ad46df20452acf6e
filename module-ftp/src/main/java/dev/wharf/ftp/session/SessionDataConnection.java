package dev.wharf.ftp.session;

import java.io.IOException;
import java.net.InetSocketAddress;

import dev.wharf.ftp.data.DataChannel;
import dev.wharf.ftp.data.DataConnections;
import dev.wharf.ftp.data.PassiveReservation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * One session's data connection set-up: the protection level ({@code PROT}), and the
 * passive port or active address of the next transfer. Each {@code PASV}, {@code EPSV},
 * {@code PORT} or {@code EPRT} serves one transfer, which Wharf's transfer commands open
 * with {@link #open()}.
 *
 * <p>
 * Thread-safe.
 */
public final class SessionDataConnection {

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
	 * @throws IOException if no port is free
	 */
	public synchronized InetSocketAddress initPassiveDataConnection() throws IOException {
		closeDataConnection();
		PassiveReservation reservation = this.connections.reservePassive(this.client.getAddress(), this.secure);
		this.passive = reservation;
		return new InetSocketAddress(this.control.getAddress(), reservation.port());
	}

	/**
	 * Sets the client address for the next transfer in active mode, giving up any earlier
	 * set-up. The caller has checked the address.
	 * @param address the client's data address
	 */
	public synchronized void initActiveDataConnection(InetSocketAddress address) {
		closeDataConnection();
		this.active = address;
	}

	/**
	 * Whether {@code PASV}, {@code EPSV}, {@code PORT} or {@code EPRT} set up the next
	 * transfer.
	 */
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

	/**
	 * Whether the set-up was made while {@code PROT P} was in force (a passive port keeps
	 * the level it had).
	 */
	public synchronized boolean isPendingSecure() {
		return (this.passive != null) ? this.passive.isSecure() : this.secure;
	}

	/** Whether {@code PROT P} is in force. */
	public boolean isSecure() {
		return this.secure;
	}

	/**
	 * Sets the protection level ({@code PROT}) for the next set-ups.
	 * @param secure whether data connections are encrypted
	 */
	public void setSecure(boolean secure) {
		this.secure = secure;
	}

	/** Gives up the pending set-up and closes a connection that arrived for it. */
	public synchronized void closeDataConnection() {
		PassiveReservation reservation = this.passive;
		if (reservation != null) {
			reservation.cancel();
		}
		this.passive = null;
		this.active = null;
	}

	/**
	 * Where the next transfer connects: the client's address (active), this server's
	 * passive port, or {@code null}.
	 */
	public synchronized @Nullable InetSocketAddress pendingAddress() {
		if (this.active != null) {
			return this.active;
		}
		return (this.passive != null) ? new InetSocketAddress(this.control.getAddress(), this.passive.port()) : null;
	}

}
