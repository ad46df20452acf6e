package dev.wharf.core.storage.sftp;

import java.security.Provider;
import java.security.Security;

import com.hierynomus.sshj.transport.cipher.ChachaPolyCiphers;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.transport.cipher.Cipher;

/**
 * The {@code chacha20-poly1305@openssh.com} cipher, with BouncyCastle registered as a JCE
 * provider only when a server first agrees to it. The JDK has every other algorithm Wharf
 * offers; only this one (ChaCha20 with SSH's 64-bit nonce, and Poly1305) needs
 * BouncyCastle. Registering it up front cost every process with an sftp mount its
 * provider's 440-odd classes and, because its jars are signed, their manifests' entry
 * digests (megabytes of heap, kept as long as the class path is open), whereas servers
 * that offer AES-GCM, which Wharf prefers, never use it. Thread-safe: the provider is
 * registered once, by whichever connection needs it first.
 */
final class ChaChaPolyOnDemand implements Factory.Named<Cipher> {

	private static final String BOUNCY_CASTLE = "org.bouncycastle.jce.provider.BouncyCastleProvider";

	private final Factory.Named<Cipher> cipher = ChachaPolyCiphers.CHACHA_POLY_OPENSSH();

	@Override
	public String getName() {
		return this.cipher.getName();
	}

	@Override
	public Cipher create() {
		Registration.done();
		return this.cipher.create();
	}

	/** Registers the provider when first touched (the JVM runs a class's setup once). */
	private static final class Registration {

		static {
			// Added last and not named to sshj as its provider: the JDK's accelerated AES
			// and SHA-2 keep serving everything else.
			if (Security.getProvider("BC") == null) {
				try {
					Security
						.addProvider((Provider) Class.forName(BOUNCY_CASTLE).getDeclaredConstructor().newInstance());
				}
				catch (ReflectiveOperationException ex) {
					// sshj itself depends on BouncyCastle: only a broken class
					// path gets here.
					throw new IllegalStateException("BouncyCastle cannot be loaded", ex);
				}
			}
		}

		private Registration() {
		}

		static void done() {
			// Nothing left to do: loading this class registered the provider.
		}

	}

}
