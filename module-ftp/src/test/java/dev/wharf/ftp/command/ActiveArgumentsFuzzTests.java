package dev.wharf.ftp.command;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the {@code PORT} and {@code EPRT} argument parsers of {@link ActiveCommand}. The
 * rules: nothing throws (but {@code EPRT}'s "unsupported network protocol", which becomes
 * a 522 reply); a result is a resolved literal address, never a looked-up name, with a
 * port in range; {@code PORT} gives the IPv4 address and port its six numbers spell;
 * {@code EPRT} gives IPv4 for protocol 1 and IPv6 for protocol 2, and the port it spells.
 */
class ActiveArgumentsFuzzTests {

	@FuzzTest(maxDuration = "5m")
	void port(FuzzedDataProvider data) {
		String argument = data.consumeRemainingAsString();
		InetSocketAddress address = ActiveCommand.parsePort(argument);
		if (address == null) {
			return;
		}
		assertThat(address.isUnresolved()).isFalse();
		assertThat(address.getAddress()).isInstanceOf(Inet4Address.class);
		String[] numbers = argument.split(",");
		assertThat(numbers).hasSize(6);
		byte[] bytes = address.getAddress().getAddress();
		for (int i = 0; i < 4; i++) {
			assertThat(bytes[i] & 0xff).isEqualTo(Integer.parseInt(numbers[i]));
		}
		assertThat(address.getPort()).isEqualTo(Integer.parseInt(numbers[4]) * 256 + Integer.parseInt(numbers[5]))
			.isBetween(0, 65535);
	}

	@FuzzTest(maxDuration = "5m")
	void eprt(FuzzedDataProvider data) {
		String argument = data.consumeRemainingAsString();
		@Nullable InetSocketAddress address;
		try {
			address = ActiveCommand.parseEprt(argument);
		}
		catch (ActiveCommand.UnsupportedFamily ex) {
			// The protocol is what stands between the first two delimiters (which may be
			// any character, digits too).
			String protocol = argument.substring(1)
				.split(java.util.regex.Pattern.quote(String.valueOf(argument.charAt(0))), -1)[0];
			assertThat(protocol).isNotIn("1", "2");
			return;
		}
		if (address == null) {
			return;
		}
		assertThat(address.isUnresolved()).isFalse();
		char delimiter = argument.charAt(0);
		String[] fields = argument.substring(1, argument.length() - 1)
			.split(java.util.regex.Pattern.quote(String.valueOf(delimiter)), -1);
		assertThat(fields).hasSize(3);
		assertThat(fields[1]).as("a literal, no name to look up").matches("[0-9A-Fa-f:.]+");
		assertThat(address.getAddress()).isInstanceOf(fields[0].equals("1") ? Inet4Address.class : Inet6Address.class);
		assertThat(address.getPort()).isEqualTo(Integer.parseInt(fields[2])).isBetween(1, 65535);
	}

}
