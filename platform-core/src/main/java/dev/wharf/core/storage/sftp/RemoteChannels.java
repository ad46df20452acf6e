package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.RejectedExecutionException;

import net.schmizz.sshj.sftp.RemoteFile;
import reactor.core.scheduler.Scheduler;

/**
 * Blocking channels over open SFTP files, for
 * {@link dev.wharf.core.storage.support.ChannelReads} and
 * {@link dev.wharf.core.storage.support.ChannelWrites}: reads keep several requests in
 * flight ahead of the reader, writes are sent in large packets with several
 * unacknowledged at once, so neither waits a round trip per buffer.
 */
final class RemoteChannels {

	/** Read requests in flight ahead of the reader. */
	static final int READ_AHEAD = 16;

	/** Bytes per write request (OpenSSH accepts up to 256 KiB per message). */
	static final int WRITE_CHUNK = 64 * 1024;

	/** Write requests sent before waiting for the oldest acknowledgement. */
	static final int UNCONFIRMED_WRITES = 16;

	private RemoteChannels() {
	}

	/**
	 * Streams a file from an offset, reading ahead.
	 * @param file the open file; closed with the channel
	 * @param offset the first byte
	 * @param length how many bytes will be read at most, or a negative number for all;
	 * bounds the read-ahead
	 * @param lease the connection, handed back when the channel closes
	 * @param io where the closing round trip runs, since a cancelled download may close
	 * from any thread
	 * @return the channel
	 */
	static ReadableByteChannel reader(RemoteFile file, long offset, long length, SftpConnectionPool.Lease lease,
			Scheduler io) {
		return new Reader(file, file.new ReadAheadRemoteFileInputStream(READ_AHEAD, offset, length), lease, io);
	}

	/**
	 * Writes a file from an offset.
	 * @param file the open file; the caller closes it after {@link Writer#finish()}
	 * @param offset where the first byte goes
	 * @return the channel
	 */
	static Writer writer(RemoteFile file, long offset) {
		return new Writer(file.new RemoteFileOutputStream(offset, UNCONFIRMED_WRITES));
	}

	private static final class Reader implements ReadableByteChannel {

		private final RemoteFile file;

		private final RemoteFile.ReadAheadRemoteFileInputStream in;

		private final SftpConnectionPool.Lease lease;

		private final Scheduler io;

		private volatile boolean open = true;

		Reader(RemoteFile file, RemoteFile.ReadAheadRemoteFileInputStream in, SftpConnectionPool.Lease lease,
				Scheduler io) {
			this.file = file;
			this.in = in;
			this.lease = lease;
			this.io = io;
		}

		@Override
		public int read(ByteBuffer destination) throws IOException {
			if (!this.open) {
				throw new ClosedChannelException();
			}
			try {
				int read;
				if (destination.hasArray()) {
					read = this.in.read(destination.array(), destination.arrayOffset() + destination.position(),
							destination.remaining());
					if (read > 0) {
						destination.position(destination.position() + read);
					}
				}
				else {
					byte[] bytes = new byte[destination.remaining()];
					read = this.in.read(bytes, 0, bytes.length);
					if (read > 0) {
						destination.put(bytes, 0, read);
					}
				}
				return read;
			}
			catch (IOException | RuntimeException ex) {
				this.lease.failed(ex);
				throw (ex instanceof IOException io) ? io : new IOException(ex);
			}
		}

		@Override
		public boolean isOpen() {
			return this.open;
		}

		@Override
		public void close() {
			if (!this.open) {
				return;
			}
			this.open = false;
			try {
				this.io.schedule(this::release);
			}
			catch (RejectedExecutionException ex) {
				// The mount is closing: its connections are being closed anyway.
				this.lease.close();
			}
		}

		private void release() {
			try {
				if (this.lease.connection().isUsable()) {
					this.file.close();
				}
			}
			catch (IOException | RuntimeException ex) {
				this.lease.failed(ex);
			}
			finally {
				this.lease.close();
			}
		}

	}

	/**
	 * Collects bytes into large write requests. Not thread-safe: one writer at a time, as
	 * {@link dev.wharf.core.storage.support.ChannelWrites} does.
	 */
	static final class Writer implements WritableByteChannel {

		private final RemoteFile.RemoteFileOutputStream out;

		private final byte[] chunk = new byte[WRITE_CHUNK];

		private int filled;

		private boolean open = true;

		private Writer(RemoteFile.RemoteFileOutputStream out) {
			this.out = out;
		}

		@Override
		public int write(ByteBuffer source) throws IOException {
			if (!this.open) {
				throw new ClosedChannelException();
			}
			int written = source.remaining();
			while (source.hasRemaining()) {
				int take = Math.min(source.remaining(), this.chunk.length - this.filled);
				source.get(this.chunk, this.filled, take);
				this.filled += take;
				if (this.filled == this.chunk.length) {
					sendChunk();
				}
			}
			return written;
		}

		private void sendChunk() throws IOException {
			// sshj copies the bytes into the request, so the chunk can be refilled at
			// once.
			this.out.write(this.chunk, 0, this.filled);
			this.filled = 0;
		}

		/**
		 * Sends what is buffered and waits until the server acknowledged every write.
		 * @throws IOException if a write failed
		 */
		void finish() throws IOException {
			if (this.filled > 0) {
				sendChunk();
			}
			this.out.close();
			this.open = false;
		}

		@Override
		public boolean isOpen() {
			return this.open;
		}

		/** Stops accepting bytes; sending and waiting is {@link #finish()}'s job. */
		@Override
		public void close() {
			this.open = false;
		}

	}

}
