package dev.wharf.core.storage.sftp;

import java.nio.charset.Charset;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.DisconnectReason;
import net.schmizz.sshj.common.Message;
import net.schmizz.sshj.common.SSHException;
import net.schmizz.sshj.common.SSHPacket;
import net.schmizz.sshj.connection.Connection;
import net.schmizz.sshj.connection.ConnectionException;
import net.schmizz.sshj.connection.channel.ChannelInputStream;
import net.schmizz.sshj.connection.channel.direct.SessionChannel;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPException;
import net.schmizz.sshj.sftp.SFTPPacket;
import net.schmizz.sshj.transport.TransportException;
import org.jspecify.annotations.Nullable;

/**
 * The channel of an SFTP subsystem that cuts the server's data into answers and hands
 * each one to the request waiting for it, on sshj's transport thread as soon as that
 * thread has decrypted the data. sshj's own SFTP client queues the data in a stream that
 * a second thread per connection reads and cuts, which woke one more thread for every
 * answer.
 *
 * <p>
 * Data is taken as it arrives, so the window given to the server is topped up at once (as
 * sshj's auto-expand does); what is held is bounded by the requests in flight and by
 * {@link #MAX_ANSWER}. A connection that fails or ends, or a server that answers a
 * request that was never made or sends an oversized answer, fails every waiting request
 * and every later one, and a protocol violation also drops the connection.
 *
 * <p>
 * Thread-safety: data arrives on the transport's reader thread alone; requests are
 * registered from any thread.
 */
final class SftpSession extends SessionChannel {

	/**
	 * The largest answer taken. OpenSSH sends at most 256 KiB; the limit keeps a faulty
	 * server from making the client buffer up to the 4 GiB a length field can announce.
	 */
	static final int MAX_ANSWER = 4 * 1024 * 1024;

	private final Map<Long, Promise<Response, SFTPException>> waiting = new ConcurrentHashMap<>();

	/** Data of an answer that has not arrived whole. Reader thread only. */
	private final Buffer.PlainBuffer partial = new Buffer.PlainBuffer();

	/** The first packet, the server's VERSION, has no request id. */
	private volatile @Nullable Promise<SFTPPacket<Response>, SFTPException> greeting;

	private volatile int version;

	private volatile @Nullable SFTPException failure;

	SftpSession(Connection connection, Charset remoteCharset) {
		super(connection, remoteCharset);
	}

	/**
	 * Expects the server's first packet, its VERSION; called before INIT is sent.
	 * @return the packet, once it arrives
	 */
	Promise<SFTPPacket<Response>, SFTPException> expectVersion() {
		Promise<SFTPPacket<Response>, SFTPException> version = new Promise<>("sftp / version", SFTPException.chainer,
				getLoggerFactory());
		this.greeting = version;
		SFTPException failed = this.failure;
		if (failed != null) {
			version.deliverError(failed);
		}
		return version;
	}

	/** Sets the protocol version the server chose, before any request is sent. */
	void useVersion(int version) {
		this.version = version;
	}

	/**
	 * Expects the answer to a request; called before the request is sent.
	 * @param requestId the request's id
	 * @return the answer, or the connection's failure
	 */
	Promise<Response, SFTPException> expect(long requestId) {
		Promise<Response, SFTPException> answer = new Promise<>("sftp / " + requestId, SFTPException.chainer,
				getLoggerFactory());
		this.waiting.put(requestId, answer);
		SFTPException failed = this.failure;
		if (failed != null) {
			// Failed while registering: failAll may have missed this promise.
			this.waiting.remove(requestId);
			answer.deliverError(failed);
		}
		return answer;
	}

	/** Stops waiting for the answer to a request that could not be sent. */
	void forget(long requestId) {
		this.waiting.remove(requestId);
	}

	@Override
	protected void receiveInto(ChannelInputStream stream, SSHPacket buf) throws SSHException {
		if (stream != getInputStream()) {
			// The server's error output: kept as sshj keeps it.
			super.receiveInto(stream, buf);
			return;
		}
		int length;
		try {
			length = buf.readUInt32AsInt();
		}
		catch (Buffer.BufferException ex) {
			throw new ConnectionException(ex);
		}
		if (length < 0 || length > getLocalMaxPacketSize() || length > buf.available()) {
			throw new ConnectionException(DisconnectReason.PROTOCOL_ERROR, "Bad item length: " + length);
		}
		if (this.failure != null) {
			throw new ConnectionException("Getting data on EOF'ed stream");
		}
		consumeWindow(length);
		receive(buf.array(), buf.rpos(), length);
	}

	private void consumeWindow(int length) throws ConnectionException, TransportException {
		synchronized (this.lwin) {
			this.lwin.consume(length);
			long adjustment = this.lwin.neededAdjustment();
			if (adjustment > 0) {
				this.trans.write(
						new SSHPacket(Message.CHANNEL_WINDOW_ADJUST).putUInt32(getRecipient()).putUInt32(adjustment));
				this.lwin.expand(adjustment);
			}
		}
	}

	private void receive(byte[] data, int offset, int length) throws SSHException {
		int end = offset + length;
		if (this.partial.available() == 0) {
			// Usually whole answers: read in place, without a copy.
			int done = answers(data, offset, end);
			if (done < end) {
				this.partial.clear();
				this.partial.putRawBytes(data, done, end - done);
			}
			return;
		}
		this.partial.putRawBytes(data, offset, length);
		int done = answers(this.partial.array(), this.partial.rpos(), this.partial.wpos());
		this.partial.rpos(done);
		if (this.partial.available() == 0) {
			this.partial.clear();
		}
		else {
			this.partial.compact();
		}
	}

	/** Hands over the whole answers in a range; returns where the rest starts. */
	private int answers(byte[] data, int from, int to) throws SSHException {
		int at = from;
		while (to - at >= 4) {
			long size = (data[at] & 0xffL) << 24 | (data[at + 1] & 0xffL) << 16 | (data[at + 2] & 0xffL) << 8
					| (data[at + 3] & 0xffL);
			if (size > MAX_ANSWER) {
				throw new ConnectionException(DisconnectReason.PROTOCOL_ERROR,
						"SFTP answer of " + size + " bytes is too large");
			}
			if (to - at - 4 < size) {
				break;
			}
			deliver(data, at + 4, (int) size);
			at += 4 + (int) size;
		}
		return at;
	}

	private void deliver(byte[] data, int offset, int size) throws SSHException {
		SFTPPacket<Response> packet = new SFTPPacket<>();
		packet.putRawBytes(data, offset, size);
		Promise<SFTPPacket<Response>, SFTPException> first = this.greeting;
		if (first != null) {
			this.greeting = null;
			first.deliver(packet);
			return;
		}
		Response answer;
		try {
			answer = new Response(packet, this.version);
		}
		catch (SSHException | RuntimeException ex) {
			throw new ConnectionException(DisconnectReason.PROTOCOL_ERROR, "Malformed SFTP answer", ex);
		}
		Promise<Response, SFTPException> waiter = this.waiting.remove(answer.getRequestID());
		if (waiter == null) {
			throw new ConnectionException(DisconnectReason.PROTOCOL_ERROR, "Received [" + answer.getType()
					+ "] response for request-id " + answer.getRequestID() + ", no such request was made");
		}
		waiter.deliver(answer);
	}

	@Override
	public void notifyError(SSHException error) {
		failAll(error);
		super.notifyError(error);
	}

	@Override
	protected void eofInputStreams() {
		failAll(new SFTPException("EOF while reading packet"));
		super.eofInputStreams();
	}

	@Override
	protected void closeAllStreams() {
		failAll(new SFTPException("EOF while reading packet"));
		super.closeAllStreams();
	}

	private void failAll(Throwable error) {
		SFTPException failed = SFTPException.chainer.chain(error);
		if (this.failure == null) {
			this.failure = failed;
		}
		Promise<SFTPPacket<Response>, SFTPException> first = this.greeting;
		if (first != null) {
			first.deliverError(failed);
		}
		for (Iterator<Promise<Response, SFTPException>> it = this.waiting.values().iterator(); it.hasNext();) {
			Promise<Response, SFTPException> answer = it.next();
			it.remove();
			answer.deliverError(failed);
		}
	}

}
