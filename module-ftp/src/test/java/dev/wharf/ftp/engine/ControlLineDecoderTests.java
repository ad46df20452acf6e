package dev.wharf.ftp.engine;

import java.nio.charset.StandardCharsets;

import dev.wharf.ftp.engine.ControlLineDecoder.BadLine;
import dev.wharf.ftp.session.CommandLine;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ControlLineDecoder} and {@link CommandLine}.
 */
class ControlLineDecoderTests {

	@Test
	void aLineEndsWithCrlfOrLf() {
		assertThat(ControlLineDecoder.decode(bytes("NOOP\r"))).isEqualTo("NOOP");
		assertThat(ControlLineDecoder.decode(bytes("NOOP"))).isEqualTo("NOOP");
	}

	@Test
	void telnetCommandsBeforeAborAreRemoved() {
		// IAC IP IAC DM ABOR, as lftp sends it; the kernel removes the urgent DM byte,
		// leaving a bare IAC.
		byte[] withDm = { (byte) 0xff, (byte) 0xf4, (byte) 0xff, (byte) 0xf2, 'A', 'B', 'O', 'R', '\r' };
		byte[] withoutDm = { (byte) 0xff, (byte) 0xf4, (byte) 0xff, 'A', 'B', 'O', 'R' };
		byte[] negotiation = { (byte) 0xff, (byte) 0xfb, 1, 'N', 'O', 'O', 'P' };
		assertThat(ControlLineDecoder.decode(withDm)).isEqualTo("ABOR");
		assertThat(ControlLineDecoder.decode(withoutDm)).isEqualTo("ABOR");
		assertThat(ControlLineDecoder.decode(negotiation)).isEqualTo("NOOP");
	}

	@Test
	void utf8IsStrict() {
		assertThat(ControlLineDecoder.decode(bytes("RETR Grüße.txt"))).isEqualTo("RETR Grüße.txt");
		byte[] overlong = { 'R', 'E', 'T', 'R', ' ', (byte) 0xc0, (byte) 0xae, (byte) 0xc0, (byte) 0xae, '/', 'x' };
		byte[] latin1 = { 'R', 'E', 'T', 'R', ' ', (byte) 0xe9 };
		byte[] escapedIac = { 'R', 'E', 'T', 'R', ' ', (byte) 0xff, (byte) 0xff };
		assertThat(ControlLineDecoder.decode(overlong)).isEqualTo(BadLine.NOT_UTF8);
		assertThat(ControlLineDecoder.decode(latin1)).isEqualTo(BadLine.NOT_UTF8);
		assertThat(ControlLineDecoder.decode(escapedIac)).isEqualTo(BadLine.NOT_UTF8);
	}

	@Test
	void controlCharactersInsideALineAreRefused() {
		assertThat(ControlLineDecoder.decode(bytes("MKD a\rb"))).isEqualTo(BadLine.CONTROL_CHARACTER);
		assertThat(ControlLineDecoder.decode(bytes("RETR a\0b"))).isEqualTo(BadLine.CONTROL_CHARACTER);
		assertThat(ControlLineDecoder.decode(bytes("RETR a\tb"))).isEqualTo(BadLine.CONTROL_CHARACTER);
		assertThat(ControlLineDecoder.decode(bytes("RETR a\u0085b"))).isEqualTo(BadLine.CONTROL_CHARACTER);
		assertThat(ControlLineDecoder.decode(bytes(""))).isEqualTo(BadLine.EMPTY);
		assertThat(ControlLineDecoder.decode(new byte[ControlLineDecoder.MAX_LINE + 1])).isEqualTo(BadLine.TOO_LONG);
	}

	@Test
	void requestsKeepTheirArgumentExactly() {
		CommandLine request = new CommandLine("stor  two spaces ");
		assertThat(request.command()).isEqualTo("STOR");
		assertThat(request.argument()).isEqualTo(" two spaces ");
		assertThat(new CommandLine("XMKD dir").command()).isEqualTo("MKD");
		assertThat(new CommandLine("XYZZY").command()).isEqualTo("XYZZY");
		assertThat(new CommandLine("NOOP").argument()).isNull();
		assertThat(new CommandLine("PASS secret")).hasToString("PASS *****");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
