package dev.wharf.core.autoconfigure;

import dev.wharf.core.web.Http10KeepAliveFilter;
import dev.wharf.core.web.HttpAdmissionProperties;
import dev.wharf.core.web.HttpListenerProperties;
import dev.wharf.core.web.HttpTimeoutProperties;
import dev.wharf.core.web.KeepAliveReadResumer;
import dev.wharf.core.web.NonAsciiTargetEncoder;
import dev.wharf.core.web.PerLoopListeners;
import dev.wharf.core.web.RequestAdmission;
import dev.wharf.core.web.RequestHeadTimeout;
import dev.wharf.core.tls.TlsPolicy;
import dev.wharf.core.web.TlsPolicyCustomizer;
import dev.wharf.core.web.TransferEncodingCheck;
import dev.wharf.core.web.WriteProgressTimeout;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import reactor.netty.http.server.HttpServer;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the HTTP server fixes every HTTP module relies on: HTTP/1.0
 * keep-alive and keep-alive connections that must not stall (see
 * {@link KeepAliveReadResumer}), request bodies framed only as Wharf can read them (see
 * {@link TransferEncodingCheck}), request targets with unencoded UTF-8 (see
 * {@link NonAsciiTargetEncoder}), timeouts for slow clients (see
 * {@link HttpTimeoutProperties}), with a counter {@value #STALLED_RESPONSES} of the
 * downloads closed because the client stopped reading, a bound on the requests worked on
 * at once (see {@link RequestAdmission}), the TLS policy (see {@link TlsPolicy}) when TLS
 * is on, and, when turned on, new connections accepted on every event loop (see
 * {@link PerLoopListeners}).
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnClass({ HttpServer.class, NettyServerCustomizer.class })
@EnableConfigurationProperties({ HttpTimeoutProperties.class, HttpAdmissionProperties.class,
		HttpListenerProperties.class })
public final class WebServerAutoConfiguration {

	/**
	 * Counts the connections closed because their response stopped moving
	 * ({@link WriteProgressTimeout}).
	 */
	public static final String STALLED_RESPONSES = "wharf.http.stalled.responses";

	@Bean
	Http10KeepAliveFilter http10KeepAliveFilter() {
		return new Http10KeepAliveFilter();
	}

	@Bean
	NettyServerCustomizer keepAliveReadResumer() {
		return KeepAliveReadResumer::install;
	}

	@Bean
	NettyServerCustomizer transferEncodingCheck() {
		return TransferEncodingCheck::install;
	}

	@Bean
	NettyServerCustomizer nonAsciiTargetEncoder() {
		return NonAsciiTargetEncoder::install;
	}

	@Bean
	NettyServerCustomizer slowClientTimeouts(HttpTimeoutProperties timeouts, ObjectProvider<MeterRegistry> meters) {
		// Looked up when a connection is closed, not now: the server is made before most
		// beans.
		Runnable stalled = () -> meters.ifAvailable(registry -> registry.counter(STALLED_RESPONSES).increment());
		return server -> {
			HttpServer bounded = RequestHeadTimeout.install(server, timeouts.headerTimeout());
			bounded = WriteProgressTimeout.install(bounded, timeouts.writeTimeout(), stalled);
			// Reactor Netty's read timeout runs only while a request body is being read,
			// between two reads.
			return timeouts.bodyTimeout().isZero() ? bounded : bounded.readTimeout(timeouts.bodyTimeout());
		};
	}

	@Bean
	NettyServerCustomizer requestAdmission(HttpAdmissionProperties admission) {
		return server -> RequestAdmission.install(server, admission.maxRequests());
	}

	@Bean
	PerLoopListeners perLoopListeners(HttpListenerProperties listeners) {
		return new PerLoopListeners(listeners.acceptPerLoop());
	}

	@Bean
	TlsPolicyCustomizer tlsPolicyCustomizer() {
		return new TlsPolicyCustomizer();
	}

}
