package dev.wharf.core.storage.sftp;

import net.schmizz.sshj.common.SecurityUtils;

/**
 * Where sshj takes its algorithms from, set before sshj is first used (its first use,
 * such as parsing a known-hosts line, would otherwise register BouncyCastle and name it
 * as the provider of every algorithm). BouncyCastle's plain Java AES and SHA-2 are
 * several times slower than the JDK's accelerated ones, and the JDK's providers serve
 * every algorithm Wharf offers but ChaCha20-Poly1305, which registers BouncyCastle when a
 * server agrees to it ({@link ChaChaPolyOnDemand}). Thread-safe: the settings are made
 * once, when the JVM first initialises this class.
 */
final class SshjSecurity {

	static {
		SecurityUtils.setRegisterBouncyCastle(false);
		SecurityUtils.setSecurityProvider(null);
	}

	private SshjSecurity() {
	}

	/** Makes sure the settings are made; call before anything of sshj's runs. */
	static void apply() {
		// Nothing left to do: initialising this class made them.
	}

}
