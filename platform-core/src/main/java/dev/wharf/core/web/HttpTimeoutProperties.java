package dev.wharf.core.web;

import java.time.Duration;

import dev.wharf.core.config.InvalidConfigurationException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long the HTTP server waits for a slow client ({@code wharf.http}), on every HTTP
 * module (file manager, build cache, static sites, actuator). Reactor Netty bounds none
 * of these by default: its idle timeout ({@code server.netty.idle-timeout}) only fires
 * after that long without a single byte, and only between requests, so a client sending
 * one header byte every few seconds, a body that stalls after its headers, or a client
 * that stops reading a download would hold its connection for good.
 *
 * @param headerTimeout the most time from a request's first byte until its whole head
 * (request line and headers) has arrived; past it the client gets 408 and the connection
 * is closed (nginx's {@code client_header_timeout}, but 20 s like Apache's
 * {@code mod_reqtimeout}: a real client sends its head in one or two packets). 0 turns it
 * off
 * @param bodyTimeout the most time between two reads of a request body; past it the
 * connection is closed and what arrived is dropped (nginx's {@code client_body_timeout},
 * same 60 s default). A slow but moving upload is never cut. 0 turns it off
 * @param writeTimeout the most time response bytes may wait to be written without any of
 * them going out to the client; past it the connection is closed, and what made the
 * response (a zip's slot and thread, a file being read) is released (nginx's
 * {@code send_timeout}, same 60 s default; see {@link WriteProgressTimeout}). A slow but
 * moving download is never cut. 0 turns it off
 */
@ConfigurationProperties("wharf.http")
public record HttpTimeoutProperties(@DefaultValue("20s") Duration headerTimeout,
		@DefaultValue("60s") Duration bodyTimeout, @DefaultValue("60s") Duration writeTimeout) {

	public HttpTimeoutProperties {
		if (headerTimeout.isNegative()) {
			throw new InvalidConfigurationException("wharf.http.header-timeout", headerTimeout.toString(),
					"must be 0 (off) or positive");
		}
		if (bodyTimeout.isNegative()) {
			throw new InvalidConfigurationException("wharf.http.body-timeout", bodyTimeout.toString(),
					"must be 0 (off) or positive");
		}
		if (writeTimeout.isNegative()) {
			throw new InvalidConfigurationException("wharf.http.write-timeout", writeTimeout.toString(),
					"must be 0 (off) or positive");
		}
	}

}
