package dev.wharf.ftp.command;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the argument parsing of {@link ActiveCommand}; its checks run against a
 * server in {@link dev.wharf.ftp.FtpSecurityTests}.
 */
class ActiveCommandTests {

	@Test
	void portArgumentsAreAddressAndPort() {
		assertThat(ActiveCommand.parsePort("127,0,0,1,4,1")).isEqualTo(new InetSocketAddress("127.0.0.1", 1025));
		assertThat(ActiveCommand.parseEprt("|1|127.0.0.1|6275|")).isEqualTo(new InetSocketAddress("127.0.0.1", 6275));
		assertThat(ActiveCommand.parseEprt("!2!::1!5282!")).isEqualTo(new InetSocketAddress("::1", 5282));
	}

	@ParameterizedTest
	@ValueSource(strings = { "127,0,0,1,4", "127,0,0,256,4,1", "127,0,0,1,300,1", "a,b,c,d,e,f", "127,0,0,1,4,1,1",
			" 127,0,0,1,4,1", "1270,0,0,1,4,1" })
	void malformedPortArgumentsAreRefused(String argument) {
		assertThat(ActiveCommand.parsePort(argument)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "|1|localhost|6275|", "|1|example.com|6275|", "|1|127.0.0.999|6275|", "|2|127.0.0.1|6275|",
			"|1|::1|6275|", "|1|127.0.0.1|99999|", "|1|127.0.0.1|0|", "|1|127.0.0.1|", "1|127.0.0.1|6275|",
			"|1|127.0.0.1|6275", "|2|fe80::1%eth0|6275|", " |1|127.0.0.1|6275| " })
	void malformedEprtArgumentsAreRefusedWithoutLookingANameUp(String argument) {
		assertThat(ActiveCommand.parseEprt(argument)).isNull();
	}

}
