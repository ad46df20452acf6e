package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.SSHException;
import net.schmizz.sshj.connection.channel.direct.Session;
import net.schmizz.sshj.connection.channel.direct.SessionFactory;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.Request;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;
import net.schmizz.sshj.sftp.SFTPPacket;

/**
 * sshj's SFTP client with its answers handed over by {@link SftpSession} on the transport
 * thread, so a connection runs one sshj thread instead of two, and with requests that can
 * be sent together in one SSH message. sshj's own reader thread is never started.
 *
 * <p>
 * Thread-safe, as {@link SFTPEngine} is: requests are sent one whole request at a time,
 * and answers are matched to requests by id.
 */
final class SftpEngine extends SFTPEngine {

	private final SftpSession session;

	/**
	 * Opens the SFTP channel; {@link #init()} then agrees on the protocol.
	 * @param ssh a logged-in client
	 */
	SftpEngine(SSHClient ssh) throws SSHException {
		super(new SftpSessions(ssh));
		this.session = (SftpSession) getSubsystem();
	}

	/**
	 * Agrees on the protocol version, waiting at most the engine's time-out for the
	 * server.
	 */
	@Override
	public SftpEngine init() throws IOException {
		Promise<SFTPPacket<Response>, SFTPException> greeting = this.session.expectVersion();
		transmit(new SFTPPacket<Request>(PacketType.INIT).putUInt32(MAX_SUPPORTED_VERSION));
		SFTPPacket<Response> response = greeting.retrieve(getTimeoutMs(), TimeUnit.MILLISECONDS);
		PacketType type = response.readType();
		if (type != PacketType.VERSION) {
			throw new SFTPException("Expected INIT packet, received: " + type);
		}
		this.operativeVersion = response.readUInt32AsInt();
		if (MAX_SUPPORTED_VERSION < this.operativeVersion) {
			throw new SFTPException("Server reported incompatible protocol version: " + this.operativeVersion);
		}
		while (response.available() > 0) {
			this.serverExtensions.put(response.readString(), response.readString());
		}
		this.session.useVersion(this.operativeVersion);
		return this;
	}

	@Override
	public Promise<Response, SFTPException> request(Request request) throws IOException {
		return requestTogether(request).get(0);
	}

	/**
	 * Sends requests together, in one SSH message where they fit, for requests that do
	 * not wait for each other: one encryption, one write and one wake-up of the server
	 * instead of one each.
	 * @param requests the requests, in the order the server should see them
	 * @return their answers, in the same order
	 */
	List<Promise<Response, SFTPException>> requestTogether(Request... requests) throws IOException {
		List<Promise<Response, SFTPException>> answers = new ArrayList<>(requests.length);
		for (Request request : requests) {
			answers.add(this.session.expect(request.getRequestID()));
		}
		try {
			transmitTogether(requests);
		}
		catch (IOException | RuntimeException ex) {
			for (Request request : requests) {
				this.session.forget(request.getRequestID());
			}
			throw ex;
		}
		return answers;
	}

	/**
	 * Writes the requests into the channel's buffer and flushes it once. Holds the same
	 * lock as {@link #transmit}, so no other request lands between them.
	 */
	private synchronized void transmitTogether(Request... requests) throws IOException {
		byte[] length = new byte[4];
		for (Request request : requests) {
			int size = request.available();
			length[0] = (byte) (size >>> 24);
			length[1] = (byte) (size >>> 16);
			length[2] = (byte) (size >>> 8);
			length[3] = (byte) size;
			this.out.write(length);
			this.out.write(request.array(), request.rpos(), size);
		}
		this.out.flush();
	}

	/** Starts the SFTP channel as an {@link SftpSession}. */
	private record SftpSessions(SSHClient ssh) implements SessionFactory {

		@Override
		public Session startSession() throws SSHException {
			SftpSession session = new SftpSession(this.ssh.getConnection(), this.ssh.getRemoteCharset());
			session.open();
			return session;
		}

		@Override
		public InetSocketAddress getRemoteSocketAddress() {
			return this.ssh.getRemoteSocketAddress();
		}

	}

}
