package dev.wharf.core.storage.memcached;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.config.InvalidConfigurationException;

/**
 * Parses the {@code servers} of a memcached mount: {@code host}, {@code host:port} or
 * {@code [v6]:port}.
 */
final class MemcachedServers {

	/** memcached's standard port. */
	static final int DEFAULT_PORT = 11211;

	private MemcachedServers() {
	}

	/**
	 * Parses and resolves every server.
	 * @param servers the configured values
	 * @return one resolved address each, in order
	 * @throws InvalidConfigurationException naming the first bad entry
	 */
	static List<InetSocketAddress> resolve(List<String> servers) {
		List<InetSocketAddress> addresses = new ArrayList<>(servers.size());
		for (int i = 0; i < servers.size(); i++) {
			String property = "servers[" + i + "]";
			InetSocketAddress unresolved = parse(property, servers.get(i));
			InetSocketAddress resolved = new InetSocketAddress(unresolved.getHostString(), unresolved.getPort());
			if (resolved.isUnresolved()) {
				throw new InvalidConfigurationException(property, servers.get(i), "the host name does not resolve");
			}
			addresses.add(resolved);
		}
		return addresses;
	}

	/**
	 * Parses one server without resolving it.
	 * @param property the property, for errors
	 * @param value the configured value
	 * @return an unresolved address
	 */
	static InetSocketAddress parse(String property, String value) {
		String text = value.trim();
		String host;
		String port = null;
		if (text.startsWith("[")) {
			int end = text.indexOf(']');
			if (end < 0) {
				throw invalid(property, value);
			}
			host = text.substring(1, end);
			String rest = text.substring(end + 1);
			if (!rest.isEmpty()) {
				if (!rest.startsWith(":")) {
					throw invalid(property, value);
				}
				port = rest.substring(1);
			}
		}
		else {
			int colon = text.indexOf(':');
			if (colon >= 0 && text.indexOf(':', colon + 1) >= 0) {
				throw new InvalidConfigurationException(property, value, "write IPv6 addresses as [address]:port");
			}
			host = (colon < 0) ? text : text.substring(0, colon);
			port = (colon < 0) ? null : text.substring(colon + 1);
		}
		if (host.isEmpty() || !host.matches("[A-Za-z0-9.:_-]+")) {
			throw invalid(property, value);
		}
		int number = DEFAULT_PORT;
		if (port != null) {
			try {
				number = Integer.parseInt(port);
			}
			catch (NumberFormatException ex) {
				throw invalid(property, value);
			}
			if (number < 1 || number > 65535) {
				throw new InvalidConfigurationException(property, value, "the port must be 1 to 65535");
			}
		}
		return InetSocketAddress.createUnresolved(host, number);
	}

	private static InvalidConfigurationException invalid(String property, String value) {
		return new InvalidConfigurationException(property, value,
				"a server is host, host:port or [IPv6 address]:port, such as 127.0.0.1:11211");
	}

}
