package dev.wharf.ftp.data;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.Connection;

/**
 * A passive port promised to one session: the next connection to that port from the
 * session's client address becomes the session's data connection. Connections from any
 * other address are refused (RFC 2577 section 8, port stealing). Thread-safe.
 */
public final class PassiveReservation {

	private final int port;

	private final InetAddress client;

	private final boolean secure;

	private final DataConnections owner;

	private final Runnable release;

	private final Sinks.One<DataChannel> connected = Sinks.one();

	private final AtomicReference<@Nullable DataChannel> arrived = new AtomicReference<>();

	private volatile boolean cancelled;

	private volatile @Nullable Disposable expiry;

	PassiveReservation(int port, InetAddress client, boolean secure, DataConnections owner, Runnable release) {
		this.port = port;
		this.client = client;
		this.secure = secure;
		this.owner = owner;
		this.release = release;
	}

	/** The port the client must connect to. */
	public int port() {
		return this.port;
	}

	/** The only address allowed to connect. */
	InetAddress client() {
		return this.client;
	}

	/**
	 * Whether the connection is encrypted (the session's {@code PROT} when the port was
	 * handed out).
	 */
	public boolean isSecure() {
		return this.secure;
	}

	void expireAfter(Disposable timer) {
		this.expiry = timer;
	}

	/**
	 * Hands an accepted connection to the session; runs on the connection's event loop.
	 * @param connection the connection, already known to come from the client's address
	 * @return completes when the connection closes; empty (closing it) if the reservation
	 * was cancelled
	 */
	Mono<Void> accept(Connection connection) {
		if (this.cancelled || this.arrived.get() != null) {
			return Mono.empty();
		}
		DataChannel channel = this.owner.channel(connection, this.secure);
		if (!this.arrived.compareAndSet(null, channel)) {
			channel.abort();
			return Mono.empty();
		}
		this.release.run();
		stopExpiry();
		this.connected.tryEmitValue(channel);
		if (this.cancelled) {
			channel.abort();
		}
		return connection.onDispose();
	}

	/**
	 * Waits for the client's connection.
	 * @param timeout how long to wait
	 * @return the data channel; fails with {@link TimeoutException} if the client does
	 * not connect in time
	 */
	public Mono<DataChannel> connection(Duration timeout) {
		return this.connected.asMono()
			.switchIfEmpty(Mono.error(() -> new IOException("The passive port was given up")))
			.timeout(timeout);
	}

	/** Gives the port back and closes a connection that arrived for it. Idempotent. */
	public void cancel() {
		this.cancelled = true;
		this.release.run();
		stopExpiry();
		this.connected.tryEmitEmpty();
		DataChannel channel = this.arrived.get();
		if (channel != null) {
			channel.abort();
		}
	}

	private void stopExpiry() {
		Disposable timer = this.expiry;
		if (timer != null) {
			timer.dispose();
		}
	}

}
