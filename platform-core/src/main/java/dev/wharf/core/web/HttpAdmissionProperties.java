package dev.wharf.core.web;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How much work the HTTP server takes on at once ({@code wharf.http.admission}), on every
 * HTTP module (file manager, build cache, static sites, actuator). See
 * {@link RequestAdmission}.
 *
 * @param maxRequests the most connections of one server that have a request being worked
 * on at once; a request beyond it waits, unread past its head, until a response completes
 * (a wait longer than {@code server.netty.idle-timeout} closes the connection as idle).
 * 0, the default, sets no bound: the memory a JVM profile leaves is the bound. The small
 * JVM profiles set one, as their heap cannot hold a request's memory for each of 1,000
 * concurrent connections
 */
@ConfigurationProperties("wharf.http.admission")
public record HttpAdmissionProperties(@DefaultValue("0") int maxRequests) {

	public HttpAdmissionProperties {
		if (maxRequests < 0) {
			throw new InvalidConfigurationException("wharf.http.admission.max-requests", Integer.toString(maxRequests),
					"must be 0 (no bound) or positive");
		}
	}

}
