package dev.wharf.ftp.autoconfigure;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;

import dev.wharf.core.autoconfigure.SecurityAutoConfiguration;
import dev.wharf.core.autoconfigure.StorageAutoConfiguration;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.ftp.FtpClients;
import dev.wharf.ftp.FtpTestServer;
import dev.wharf.ftp.server.WharfFtpServer;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPSClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FtpAutoConfiguration}: the server Spring starts from
 * {@code wharf.ftp}, and the checks of every value.
 */
class FtpAutoConfigurationTests {

	static final String HASH = PasswordHashing.hash("pw-alice");

	@TempDir
	Path temp;

	ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class, SecurityAutoConfiguration.class,
					SslAutoConfiguration.class, FtpAutoConfiguration.class))
			.withPropertyValues("wharf.state-dir=" + this.temp.resolve("state"),
					"wharf.storage.mounts.data.type=memory", "wharf.security.users[0].name=alice",
					"wharf.security.users[0].password=" + HASH, "wharf.security.users[0].mounts.data=rw",
					"wharf.ftp.port=0", "wharf.ftp.passive-ports=0");
	}

	@Test
	void servesTheConfiguredMountsToTheConfiguredUsers() {
		runner().run(context -> {
			WharfFtpServer server = context.getBean(WharfFtpServer.class);
			assertThat(server.isRunning()).isTrue();
			FTPClient client = new FTPClient();
			FtpClients.configure(client);
			client.connect("127.0.0.1", server.port());
			try {
				assertThat(client.login("alice", "pw-alice")).isTrue();
				client.enterLocalPassiveMode();
				assertThat(client.storeFile("a.txt", new ByteArrayInputStream(new byte[] { 1, 2, 3 }))).isTrue();
				assertThat(client.listNames()).containsExactly("a.txt");
			}
			finally {
				FtpClients.close(client);
			}
		});
	}

	@Test
	void keysComeFromAnSslBundle() throws Exception {
		Path keyStore = FtpTestServer.keyStorePath();
		runner()
			.withPropertyValues("spring.ssl.bundle.jks.ftp.keystore.location=file:" + keyStore,
					"spring.ssl.bundle.jks.ftp.keystore.password=changeit",
					"spring.ssl.bundle.jks.ftp.keystore.type=PKCS12", "wharf.ftp.tls.mode=explicit",
					"wharf.ftp.tls.bundle=ftp", "wharf.ftp.tls.required=true")
			.run(context -> {
				int port = context.getBean(WharfFtpServer.class).port();
				FTPClient plain = new FTPClient();
				FtpClients.configure(plain);
				plain.connect("127.0.0.1", port);
				try {
					assertThat(plain.login("alice", "pw-alice")).isFalse();
					assertThat(plain.getReplyString()).startsWith("530").contains("TLS");
				}
				finally {
					FtpClients.close(plain);
				}
				FTPSClient secure = new FTPSClient(false, FtpTestServer.clientTls());
				FtpClients.configure(secure);
				secure.connect("127.0.0.1", port);
				try {
					assertThat(secure.login("alice", "pw-alice")).as(secure.getReplyString()).isTrue();
					secure.execPBSZ(0);
					secure.execPROT("P");
					secure.enterLocalPassiveMode();
					assertThat(secure.storeFile("s.txt", new ByteArrayInputStream(new byte[] { 7 }))).isTrue();
					assertThat(secure.listNames()).containsExactly("s.txt");
				}
				finally {
					FtpClients.close(secure);
				}
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = ';', value = { "wharf.ftp.passive-ports=30010-30000; wharf.ftp.passive-ports",
			"wharf.ftp.passive-ports=ftp; wharf.ftp.passive-ports", "wharf.ftp.mounts=nope; wharf.ftp.mounts[0]",
			"wharf.ftp.mounts=data,data; wharf.ftp.mounts[1]", "wharf.ftp.port=70000; wharf.ftp.port",
			"wharf.ftp.idle-timeout=0s; wharf.ftp.idle-timeout", "wharf.ftp.data-timeout=-1s; wharf.ftp.data-timeout",
			"wharf.ftp.max-logins=0; wharf.ftp.max-logins",
			"wharf.ftp.max-logins-per-address=0; wharf.ftp.max-logins-per-address",
			"wharf.ftp.external-address=::1; wharf.ftp.external-address",
			"wharf.ftp.tls.mode=explicit; wharf.ftp.tls.bundle",
			"wharf.ftp.tls.mode=implicit & wharf.ftp.tls.bundle=missing; wharf.ftp.tls.bundle",
			"wharf.ftp.tls.required=true; wharf.ftp.tls.required" })
	void badValuesStopStartUpNamingTheProperty(String settings, String property) {
		runner().withPropertyValues(settings.split(" & ")).run(context -> {
			assertThat(context).hasFailed();
			Throwable cause = context.getStartupFailure();
			while (cause != null && !(cause instanceof InvalidConfigurationException)) {
				cause = cause.getCause();
			}
			assertThat(cause).isInstanceOf(InvalidConfigurationException.class);
			assertThat(((InvalidConfigurationException) cause).property()).isEqualTo(property);
		});
	}

	@Test
	void aBundleAskingForOldTlsIsRefused() throws Exception {
		runner()
			.withPropertyValues("spring.ssl.bundle.jks.ftp.keystore.location=file:" + FtpTestServer.keyStorePath(),
					"spring.ssl.bundle.jks.ftp.keystore.password=changeit",
					"spring.ssl.bundle.jks.ftp.keystore.type=PKCS12",
					"spring.ssl.bundle.jks.ftp.options.enabled-protocols=TLSv1.1", "wharf.ftp.tls.mode=explicit",
					"wharf.ftp.tls.bundle=ftp")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("TLSv1.1");
			});
	}

	@Test
	void isOffWhenDisabled() {
		runner().withPropertyValues("wharf.ftp.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(WharfFtpServer.class));
	}

}
