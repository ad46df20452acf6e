package dev.wharf.ftp.engine;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wharf.ftp.engine.ControlLineDecoder.BadLine;
import dev.wharf.ftp.session.CommandLine;
import dev.wharf.ftp.session.Reply;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.service.DefaultTransportMetadata;
import org.apache.mina.core.session.IoSessionConfig;
import org.apache.mina.filter.codec.ProtocolCodecSession;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes what turns the raw bytes of a control connection into commands: the listener's
 * codec and its {@link ControlLineDecoder} (as MINA drives them, the bytes arriving in
 * reads of a fuzzed size) and {@link CommandLine}. The rules:
 * <ul>
 * <li>nothing but a {@link BadLine} or a command line comes out, and nothing throws;</li>
 * <li>a command line is non-empty, strict UTF-8 of at most
 * {@value ControlLineDecoder#MAX_LINE} bytes, without a control character (C0, DEL, C1,
 * U+2028, U+2029): so no CR, LF or NUL reaches a command, a name or a reply;</li>
 * <li>how the bytes are split into reads changes nothing: chunked decoding gives what one
 * read gives;</li>
 * <li>the request's command is the first word in upper case, without a space, and the
 * argument is the rest of the line exactly;</li>
 * <li>a reply that echoes the line is one line ending in the only CRLF.</li>
 * </ul>
 */
class ControlLineFuzzTests {

	@FuzzTest(maxDuration = "5m")
	void decode(FuzzedDataProvider data) throws Exception {
		int chunk = data.consumeInt(1, 64);
		byte[] stream = data.consumeRemainingAsBytes();
		List<Object> whole = decode(stream, Math.max(1, stream.length));
		List<Object> chunked = decode(stream, chunk);
		if (!chunked.equals(whole)) {
			// Not AssertJ's message: it would print lines of up to 8 KiB.
			throw new AssertionError("split into reads of " + chunk + " bytes: " + chunked.size() + " messages, not "
					+ whole.size() + ", or different ones");
		}
		for (Object message : whole) {
			if (message instanceof BadLine) {
				continue;
			}
			String line = (String) message;
			assertThat(line).isNotEmpty();
			assertThat(line.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ControlLineDecoder.MAX_LINE);
			assertThat(new String(line.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(line);
			for (int i = 0; i < line.length(); i++) {
				char c = line.charAt(i);
				if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029) {
					throw new AssertionError(String.format("control character U+%04X at %d", (int) c, i));
				}
			}
			CommandLine request = new CommandLine(line);
			assertThat(request.line()).isEqualTo(line);
			assertThat(request.command()).doesNotContain(" ")
				.isEqualTo(request.command().toUpperCase(java.util.Locale.ROOT));
			String word = line.split(" ", -1)[0];
			assertThat(request.command()).isIn(word.toUpperCase(java.util.Locale.ROOT), "CWD", "CDUP", "PWD", "MKD",
					"RMD");
			if ((request.argument() != null)) {
				assertThat(line).isEqualTo(word + " " + request.argument());
			}
			else {
				assertThat(line).isIn(word, word + " ");
			}
			String reply = EngineSession.toFtpReply(Reply.of(550, line + ": No such file or folder.")).toString();
			assertThat(reply.indexOf('\r')).isEqualTo(reply.length() - 2);
			assertThat(reply.indexOf('\n')).isEqualTo(reply.length() - 1);
		}
	}

	private static List<Object> decode(byte[] stream, int chunk) throws Exception {
		ProtocolCodecSession session = new ProtocolCodecSession();
		// Like a TCP session: a read may end anywhere, so the decoder keeps what is left
		// for the next read.
		session.setTransportMetadata(new DefaultTransportMetadata("wharf", "fuzz", false, true, SocketAddress.class,
				IoSessionConfig.class, Object.class));
		ControlListener.ControlCodec codec = new ControlListener.ControlCodec(Duration.ofDays(1));
		for (int offset = 0; offset < stream.length; offset += chunk) {
			int length = Math.min(chunk, stream.length - offset);
			// As MINA's ProtocolCodecFilter does: it asks the codec for the session's
			// decoder on every read.
			codec.getDecoder(session)
				.decode(session, IoBuffer.wrap(stream, offset, length), session.getDecoderOutput());
		}
		Queue<Object> queue = session.getDecoderOutputQueue();
		return new ArrayList<>(queue);
	}

}
