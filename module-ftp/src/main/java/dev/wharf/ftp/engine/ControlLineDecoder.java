package dev.wharf.ftp.engine;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.CumulativeProtocolDecoder;
import org.apache.mina.filter.codec.ProtocolDecoderOutput;

/**
 * Splits the control connection into command lines, one decoder per connection. A line
 * ends at LF (CRLF or a bare LF); Telnet commands that clients send before {@code ABOR}
 * ({@code IAC IP}, {@code IAC DM}) are removed; the rest must be strict UTF-8 (RFC 2640)
 * without control characters, so that no argument can carry a line break into a reply or
 * a file name. A bad line becomes a {@link BadLine} for the handler to answer; a line
 * longer than {@value #MAX_LINE} bytes is discarded up to its end.
 *
 * <p>
 * A line must also arrive whole within a deadline from its first byte. The idle timeout
 * alone cannot stop a client that sends one byte just before each timeout (slowloris):
 * every byte counts as activity, so without the deadline such a client could hold a
 * connection, before logging in, for {@value #MAX_LINE} idle periods.
 */
final class ControlLineDecoder extends CumulativeProtocolDecoder {

	/** The longest command line, in bytes: a 4 KiB path and the command. */
	static final int MAX_LINE = 8192;

	private static final int IAC = 0xff;

	private final long lineDeadlineNanos;

	private boolean discarding;

	private long partialSince;

	private boolean partial;

	private int scanned;

	/**
	 * Creates a decoder for one connection.
	 * @param lineDeadline how long a client may take to send one line, from its first
	 * byte
	 */
	ControlLineDecoder(Duration lineDeadline) {
		this.lineDeadlineNanos = lineDeadline.toNanos();
	}

	@Override
	protected boolean doDecode(IoSession session, IoBuffer in, ProtocolDecoderOutput out) {
		int start = in.position();
		int limit = in.limit();
		// Bytes of a partial line already searched are not searched again: a line
		// trickled in byte by byte
		// costs linear time, not quadratic.
		for (int i = start + Math.min(this.scanned, limit - start); i < limit; i++) {
			if (in.get(i) == '\n') {
				byte[] line = new byte[i - start];
				in.get(line);
				in.get();
				this.partial = false;
				this.scanned = 0;
				if (this.discarding) {
					this.discarding = false;
				}
				else {
					out.write(decode(line));
				}
				return true;
			}
		}
		// A line of MAX_LINE bytes may still be waiting for its CR LF; only more than
		// that (and a CR) is too long,
		// so a read that ends between the CR and the LF decides as one read of the same
		// bytes does (ControlLineFuzzTests
		// keeps such an input, max-line-crlf-split).
		this.scanned = limit - start;
		if (limit - start > MAX_LINE + 1) {
			in.position(limit);
			this.scanned = 0;
			if (!this.discarding) {
				this.discarding = true;
				out.write(BadLine.TOO_LONG);
			}
		}
		long now = System.nanoTime();
		if (!this.partial) {
			this.partial = true;
			this.partialSince = now;
		}
		else if (now - this.partialSince > this.lineDeadlineNanos && !this.discarding) {
			in.position(limit);
			this.scanned = 0;
			this.discarding = true;
			out.write(BadLine.TOO_SLOW);
		}
		return false;
	}

	/**
	 * Decodes one line without its LF.
	 * @param raw the bytes
	 * @return the command line, or a {@link BadLine}
	 */
	static Object decode(byte[] raw) {
		int length = raw.length;
		if (length > 0 && raw[length - 1] == '\r') {
			length--;
		}
		if (length > MAX_LINE) {
			return BadLine.TOO_LONG;
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(length);
		for (int i = 0; i < length; i++) {
			int b = raw[i] & 0xff;
			if (b != IAC) {
				bytes.write(b);
				continue;
			}
			int next = (i + 1 < length) ? raw[i + 1] & 0xff : -1;
			if (next == IAC) {
				bytes.write(IAC);
				i++;
			}
			else if (next >= 0xfb && next <= 0xfe) {
				// WILL, WON'T, DO, DON'T and their option.
				i += 2;
			}
			else if (next >= 0xf0) {
				i++;
			}
		}
		String text;
		try {
			text = StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes.toByteArray()))
				.toString();
		}
		catch (CharacterCodingException ex) {
			return BadLine.NOT_UTF8;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
				return BadLine.CONTROL_CHARACTER;
			}
		}
		return text.isEmpty() ? BadLine.EMPTY : text;
	}

	/** A line that is not a command. */
	enum BadLine {

		/** Longer than {@link #MAX_LINE}. */
		TOO_LONG(500, "Command line too long."),

		/** Not complete within the deadline. */
		TOO_SLOW(421, "Command line too slow; closing the connection."),

		/** Not strict UTF-8. */
		NOT_UTF8(501, "Command line is not valid UTF-8."),

		/** Holds a control character. */
		CONTROL_CHARACTER(501, "Control characters are not allowed in commands."),

		/** Nothing but the line end. */
		EMPTY(500, "Empty command.");

		private final int code;

		private final String text;

		BadLine(int code, String text) {
			this.code = code;
			this.text = text;
		}

		/** Whether the connection is closed after the reply. */
		boolean closes() {
			return this == TOO_LONG || this == TOO_SLOW;
		}

		int code() {
			return this.code;
		}

		String text() {
			return this.text;
		}

	}

}
