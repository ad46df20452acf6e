package dev.wharf.core.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the HTTP server listens ({@code wharf.http}), on every HTTP module (file manager,
 * build cache, static sites).
 *
 * @param acceptPerLoop whether each event loop accepts new connections on a listening
 * socket of its own and keeps them, instead of one loop accepting them all and handing
 * them to the others (see {@link PerLoopListeners}); only on Linux epoll with more than
 * one event loop, elsewhere the server listens once either way. Off by default: it takes
 * a sixth off the CPU of a request on a new connection, but the kernel spreads
 * connections over the loops by a hash of their addresses, not evenly as the hand-off
 * does, so a few long keep-alive connections can leave one loop busier than the others
 */
@ConfigurationProperties("wharf.http")
public record HttpListenerProperties(@DefaultValue("false") boolean acceptPerLoop) {

}
