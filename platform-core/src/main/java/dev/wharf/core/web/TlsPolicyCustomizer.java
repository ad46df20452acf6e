package dev.wharf.core.web;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import dev.wharf.core.tls.TlsPolicy;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.AbstractConfigurableWebServerFactory;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Applies {@link TlsPolicy} to the web server's TLS, both ways Spring Boot configures it:
 * {@code server.ssl.*} key stores (the protocols and ciphers of the {@link Ssl} settings)
 * and {@code server.ssl.bundle} (the options of every bundle the server asks for, also
 * after a bundle is reloaded). Runs after Spring Boot's own customizer, which hands the
 * factory those settings. Acting on the options, rather than on Netty's handlers, keeps
 * it working with the server-name (SNI) bundles, whose handlers Spring Boot builds
 * itself.
 */
public final class TlsPolicyCustomizer
		implements WebServerFactoryCustomizer<AbstractConfigurableWebServerFactory>, Ordered {

	@Override
	public void customize(AbstractConfigurableWebServerFactory factory) {
		Ssl ssl = factory.getSsl();
		if (!Ssl.isEnabled(ssl)) {
			return;
		}
		if (ssl.getBundle() == null) {
			// The factory's Ssl is the server.ssl properties object itself: narrowing it
			// in place is what setting
			// those two properties would do.
			ssl.setEnabledProtocols(TlsPolicy.protocols(ssl.getEnabledProtocols()));
			ssl.setCiphers(TlsPolicy.cipherSuites(ssl.getCiphers()));
		}
		SslBundles bundles = factory.getSslBundles();
		if (bundles != null) {
			factory.setSslBundles(new RestrictedBundles(bundles));
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	/** The application's bundles, each handed out narrowed to the policy. */
	private record RestrictedBundles(SslBundles bundles) implements SslBundles {

		@Override
		public SslBundle getBundle(String name) throws NoSuchSslBundleException {
			return TlsPolicy.restrict(this.bundles.getBundle(name));
		}

		@Override
		public void addBundleUpdateHandler(String name, Consumer<SslBundle> handler) throws NoSuchSslBundleException {
			this.bundles.addBundleUpdateHandler(name, bundle -> handler.accept(TlsPolicy.restrict(bundle)));
		}

		@Override
		public void addBundleRegisterHandler(BiConsumer<String, SslBundle> handler) {
			this.bundles.addBundleRegisterHandler((name, bundle) -> handler.accept(name, TlsPolicy.restrict(bundle)));
		}

		@Override
		public List<String> getBundleNames() {
			return this.bundles.getBundleNames();
		}

	}

}
