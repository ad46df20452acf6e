package dev.wharf.ftp.server;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.wharf.core.storage.mount.Mount;
import dev.wharf.ftp.data.PassivePortRange;
import dev.wharf.ftp.tls.FtpTls;
import org.jspecify.annotations.Nullable;

/**
 * A checked configuration of the FTP server.
 *
 * @param address where the control and passive ports listen
 * @param port the control port; 0 for any free port
 * @param passivePorts the passive ports
 * @param externalAddress the address {@code PASV} announces, or {@code null} for the one
 * the client reached
 * @param mounts the mounts FTP serves, in order; at least one
 * @param idleTimeout how long a control connection may stay silent outside transfers
 * @param dataTimeout how long a data connection may take to open, and stay without
 * progress
 * @param maxConnections most control connections
 * @param maxConnectionsPerAddress most control connections from one address
 * @param activeMode whether {@code PORT}/{@code EPRT} are allowed
 * @param tls TLS, or {@code null} when FTPS is off
 * @param implicitTls whether the control port speaks TLS from the first byte (else
 * {@code AUTH TLS})
 * @param tlsRequired whether logins and data connections must be encrypted
 */
public record FtpServerConfig(String address, int port, PassivePortRange passivePorts,
		@Nullable InetAddress externalAddress, List<Mount> mounts, Duration idleTimeout, Duration dataTimeout,
		int maxConnections, int maxConnectionsPerAddress, boolean activeMode, @Nullable FtpTls tls, boolean implicitTls,
		boolean tlsRequired) {

	public FtpServerConfig {
		Objects.requireNonNull(address, "address");
		mounts = List.copyOf(mounts);
		if (mounts.isEmpty()) {
			throw new IllegalArgumentException("FTP needs at least one mount");
		}
		if ((implicitTls || tlsRequired) && tls == null) {
			throw new IllegalArgumentException("Implicit or required TLS needs TLS");
		}
	}

}
