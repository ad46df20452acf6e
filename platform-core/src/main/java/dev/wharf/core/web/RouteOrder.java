package dev.wharf.core.web;

/**
 * The order of the Reactor Netty routes that HTTP modules put in front of WebFlux. Each
 * module contributes a {@code NettyRouteProvider} bean that implements
 * {@link org.springframework.core.Ordered} with one of these values; Spring Boot applies
 * the providers in that order and Reactor Netty answers a request with the first route
 * that matches it, so a module's own fixed endpoint (the build cache's base path) is
 * tried before user-configured sites, and a static site at {@code /} can never shadow it.
 * Requests no route takes go on to WebFlux (the file manager, the actuator).
 *
 * <p>
 * Route predicates should read the request target with {@link RequestTargets} (raw,
 * decoded once later by the storage path rules).
 */
public final class RouteOrder {

	/** A module's endpoint under its own configured base path, such as {@code /cache}. */
	public static final int ENDPOINTS = 0;

	/** User-configured sites, which may claim any prefix, {@code /} included. */
	public static final int SITES = 100;

	private RouteOrder() {
	}

}
