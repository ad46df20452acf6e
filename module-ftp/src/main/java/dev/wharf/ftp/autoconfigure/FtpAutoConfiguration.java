package dev.wharf.ftp.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.ftp.autoconfigure.FtpProperties.TlsMode;
import dev.wharf.ftp.data.PassivePortRange;
import dev.wharf.ftp.server.FtpServerConfig;
import dev.wharf.ftp.server.WharfFtpServer;
import dev.wharf.ftp.tls.FtpTls;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the FTP and FTPS server. On unless
 * {@code wharf.ftp.enabled=false}. Every {@code wharf.ftp} value is checked at start-up;
 * a bad one stops it with a message naming the property.
 */
@AutoConfiguration(afterName = { "dev.wharf.core.autoconfigure.SecurityAutoConfiguration",
		"org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "wharf.ftp.enabled", matchIfMissing = true)
@EnableConfigurationProperties(FtpProperties.class)
public final class FtpAutoConfiguration {

	private static final String PREFIX = "wharf.ftp.";

	@Bean
	WharfFtpServer wharfFtpServer(FtpProperties properties, MountRegistry mounts, Authenticator authenticator,
			AuditLog audit, ObjectProvider<SslBundles> sslBundles) {
		return new WharfFtpServer(config(properties, mounts, sslBundles.getIfAvailable()), authenticator, audit);
	}

	static FtpServerConfig config(FtpProperties properties, MountRegistry mounts, @Nullable SslBundles sslBundles) {
		if (properties.port() < 0 || properties.port() > 65535) {
			throw new InvalidConfigurationException(PREFIX + "port", Integer.toString(properties.port()),
					"must be 0 to 65535 (0 picks a free port)");
		}
		resolve("address", properties.address());
		PassivePortRange passivePorts;
		try {
			passivePorts = PassivePortRange.parse(properties.passivePorts());
		}
		catch (IllegalArgumentException ex) {
			String reason = ex.getMessage();
			throw new InvalidConfigurationException(PREFIX + "passive-ports", properties.passivePorts(),
					(reason != null) ? reason : "not a list of ports and port ranges");
		}
		InetAddress external = null;
		if (!properties.externalAddress().isBlank()) {
			external = resolve("external-address", properties.externalAddress().trim());
			if (external.getAddress().length != 4) {
				throw new InvalidConfigurationException(PREFIX + "external-address", properties.externalAddress(),
						"PASV replies can only announce an IPv4 address");
			}
		}
		List<Mount> served = new ArrayList<>();
		for (int i = 0; i < properties.mounts().size(); i++) {
			Mount mount = mounts.require(PREFIX + "mounts[" + i + "]", properties.mounts().get(i));
			if (served.contains(mount)) {
				throw new InvalidConfigurationException(PREFIX + "mounts[" + i + "]", mount.name(), "is listed twice");
			}
			served.add(mount);
		}
		if (served.isEmpty()) {
			throw new InvalidConfigurationException(PREFIX + "mounts", "", "FTP needs at least one mount");
		}
		positive("idle-timeout", properties.idleTimeout());
		positive("data-timeout", properties.dataTimeout());
		if (properties.maxLogins() < 1) {
			throw new InvalidConfigurationException(PREFIX + "max-logins", Integer.toString(properties.maxLogins()),
					"must be at least 1");
		}
		if (properties.maxLoginsPerAddress() < 1) {
			throw new InvalidConfigurationException(PREFIX + "max-logins-per-address",
					Integer.toString(properties.maxLoginsPerAddress()), "must be at least 1");
		}
		FtpProperties.Tls tls = properties.tls();
		FtpTls ftpTls = tls(tls, sslBundles);
		if (tls.required() && ftpTls == null) {
			throw new InvalidConfigurationException(PREFIX + "tls.required", "true",
					"needs tls.mode explicit or implicit");
		}
		return new FtpServerConfig(properties.address(), properties.port(), passivePorts, external, served,
				properties.idleTimeout(), properties.dataTimeout(), properties.maxLogins(),
				properties.maxLoginsPerAddress(), properties.activeMode(), ftpTls, tls.mode() == TlsMode.IMPLICIT,
				tls.required());
	}

	private static @Nullable FtpTls tls(FtpProperties.Tls tls, @Nullable SslBundles sslBundles) {
		if (tls.mode() == TlsMode.OFF) {
			return null;
		}
		String bundle = tls.bundle();
		if (bundle == null || bundle.isBlank()) {
			throw new InvalidConfigurationException(PREFIX + "tls.bundle", null,
					"FTPS needs the name of an SSL bundle (spring.ssl.bundle.*) holding the key and certificate");
		}
		if (sslBundles == null) {
			throw new InvalidConfigurationException(PREFIX + "tls.bundle", bundle, "no SSL bundles are configured");
		}
		try {
			return FtpTls.of(sslBundles, bundle);
		}
		catch (NoSuchSslBundleException ex) {
			throw new InvalidConfigurationException(PREFIX + "tls.bundle", bundle,
					"no such SSL bundle; configured: " + String.join(", ", sslBundles.getBundleNames()));
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			throw new InvalidConfigurationException(PREFIX + "tls.bundle", bundle, String.valueOf(ex.getMessage()));
		}
	}

	private static InetAddress resolve(String property, String host) {
		try {
			return InetAddress.getByName(host);
		}
		catch (UnknownHostException ex) {
			throw new InvalidConfigurationException(PREFIX + property, host, "is not an address or a known host name");
		}
	}

	private static void positive(String property, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new InvalidConfigurationException(PREFIX + property, value.toString(), "must be longer than zero");
		}
	}

}
