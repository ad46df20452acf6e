package dev.wharf.core.storage.sftp;

import java.util.List;

import net.schmizz.sshj.Config;
import net.schmizz.sshj.common.Factory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the algorithms {@link SftpConnector} offers.
 */
class SftpConnectorTests {

	@Test
	void offersNoBrokenOrDeprecatedAlgorithm() {
		Config config = SftpConnector.config();
		assertThat(names(config.getCipherFactories())).first().isEqualTo("aes128-gcm@openssh.com");
		assertThat(names(config.getCipherFactories())).contains("chacha20-poly1305@openssh.com");
		assertThat(names(config.getCipherFactories())).noneMatch(name -> name.contains("cbc") || name.contains("3des")
				|| name.contains("blowfish") || name.contains("arcfour"));
		assertThat(names(config.getMACFactories())).allMatch(name -> name.startsWith("hmac-sha2-"));
		assertThat(names(config.getKeyExchangeFactories()))
			.noneMatch(name -> name.endsWith("-sha1") || name.equals("diffie-hellman-group1-sha1"))
			.contains("curve25519-sha256");
		assertThat(names(config.getKeyAlgorithms())).noneMatch(name -> name.contains("dss")).contains("ssh-ed25519");
	}

	private static List<String> names(List<? extends Factory.Named<?>> factories) {
		return factories.stream().map(Factory.Named::getName).toList();
	}

}
