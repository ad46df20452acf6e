package dev.wharf.ftp.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The FTP and FTPS server ({@code wharf.ftp}).
 *
 * @param enabled whether the server runs
 * @param address the address to listen on; {@code 0.0.0.0} (or {@code ::}) for every
 * interface
 * @param port the control port; 0 picks a free one
 * @param passivePorts ports for passive data connections, such as {@code 30000-30009} or
 * {@code 30000-30009,30020}; {@code 0} (or empty) takes any free port for each transfer.
 * Each port serves many sessions at once: a connection is matched to the session that
 * asked from the same client address
 * @param externalAddress the IPv4 address (or a host name, resolved at start) that
 * {@code PASV} replies announce, for servers behind NAT or a Kubernetes service; empty
 * announces the address the client connected to
 * @param mounts the mounts FTP serves: with one, its root is {@code /}; with several,
 * {@code /} holds one folder per mount the user may read
 * @param idleTimeout how long a control connection may stay silent (outside transfers)
 * before it is closed; also the most a client may take to send one command line, and to
 * log in
 * @param dataTimeout how long a data connection may take to be opened, and stay without
 * progress during a transfer
 * @param maxLogins most control connections at once, logged in or not
 * @param maxLoginsPerAddress most control connections at once from one client address
 * @param activeMode whether {@code PORT}/{@code EPRT} are allowed (only to the client's
 * own address and ports from 1024 up)
 * @param tls FTPS
 */
@ConfigurationProperties("wharf.ftp")
public record FtpProperties(@DefaultValue("true") boolean enabled, @DefaultValue("127.0.0.1") String address,
		@DefaultValue("2121") int port, @DefaultValue("30000-30009") String passivePorts,
		@DefaultValue("") String externalAddress, @DefaultValue("data") List<String> mounts,
		@DefaultValue("5m") Duration idleTimeout, @DefaultValue("1m") Duration dataTimeout,
		@DefaultValue("500") int maxLogins, @DefaultValue("50") int maxLoginsPerAddress,
		@DefaultValue("true") boolean activeMode, @DefaultValue Tls tls) {

	/**
	 * FTPS settings ({@code wharf.ftp.tls}).
	 *
	 * @param mode {@code off}, {@code explicit} ({@code AUTH TLS} on the control port) or
	 * {@code implicit} (TLS from the first byte on the control port)
	 * @param bundle the name of the Spring Boot SSL bundle ({@code spring.ssl.bundle.*})
	 * holding the key and certificate; required unless the mode is {@code off}
	 * @param required whether logins and data connections must be encrypted:
	 * {@code USER}/{@code PASS} before {@code AUTH TLS} and transfers without
	 * {@code PROT P} are refused
	 */
	public record Tls(@DefaultValue("off") TlsMode mode, @Nullable String bundle,
			@DefaultValue("false") boolean required) {
	}

	/** How FTPS is offered. */
	public enum TlsMode {

		/** No TLS. */
		OFF,

		/** {@code AUTH TLS} upgrades a plain control connection (RFC 4217). */
		EXPLICIT,

		/** The control connection speaks TLS from its first byte. */
		IMPLICIT

	}

}
