package dev.wharf.app.actuator;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.ApiVersion;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.ReactiveHealthEndpointWebExtension;
import org.springframework.boot.health.actuate.endpoint.SystemHealthDescriptor;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The actuator's health on the public HTTP port, for probes and load balancers that reach
 * only that port, while the actuator itself (metrics, info, health with details) listens
 * on the management port: {@code GET} and {@code HEAD} of {@code <base>/health},
 * {@code <base>/health/liveness}, {@code <base>/health/readiness} and every other group
 * or component below {@code <base>/health}, answered with the HTTP status the actuator
 * gives and a body of statuses only: each component's status and the groups, never a
 * detail, whatever {@code management.endpoint.health.show-details} says, so an anonymous
 * caller learns no host path, no error message and no backend address. Thread-safe; never
 * blocks.
 */
final class PublicHealth {

	private final ObjectProvider<ReactiveHealthEndpointWebExtension> health;

	private final String base;

	/**
	 * Creates the routes' handler.
	 * @param health the actuator's health endpoint (absent when health is off: then every
	 * path is 404)
	 * @param basePath the actuator's base path, such as {@code /actuator}
	 */
	PublicHealth(ObjectProvider<ReactiveHealthEndpointWebExtension> health, String basePath) {
		this.health = health;
		this.base = (basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath) + "/health";
	}

	/** The routes, for WebFlux. */
	RouterFunction<ServerResponse> routes() {
		return RouterFunctions.route(
				RequestPredicates.method(HttpMethod.GET)
					.or(RequestPredicates.method(HttpMethod.HEAD))
					.and(RequestPredicates.path(this.base).or(RequestPredicates.path(this.base + "/**"))),
				this::answer);
	}

	private Mono<ServerResponse> answer(ServerRequest request) {
		ReactiveHealthEndpointWebExtension endpoint = this.health.getIfAvailable();
		if (endpoint == null) {
			return ServerResponse.notFound().build();
		}
		String rest = request.path().substring(this.base.length());
		String[] path = rest.isEmpty() || rest.equals("/") ? new String[0] : rest.substring(1).split("/");
		return endpoint.health(ApiVersion.LATEST, WebServerNamespace.MANAGEMENT, SecurityContext.NONE, path)
			.flatMap(response -> {
				HealthDescriptor body = response.getBody();
				if (body == null) {
					return ServerResponse.status(response.getStatus()).build();
				}
				return ServerResponse.status(response.getStatus())
					.contentType(MediaType.APPLICATION_JSON)
					.header("Cache-Control", "no-store")
					.bodyValue(statuses(body));
			})
			.switchIfEmpty(Mono.defer(() -> ServerResponse.status(HttpStatus.NOT_FOUND).build()));
	}

	/** A descriptor as JSON, its statuses and groups only. */
	static Map<String, Object> statuses(HealthDescriptor descriptor) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("status", descriptor.getStatus().getCode());
		if (descriptor instanceof CompositeHealthDescriptor composite && composite.getComponents() != null) {
			Map<String, Object> components = new LinkedHashMap<>();
			composite.getComponents().forEach((name, component) -> components.put(name, statuses(component)));
			json.put("components", components);
		}
		if (descriptor instanceof SystemHealthDescriptor system && system.getGroups() != null) {
			json.put("groups", system.getGroups());
		}
		return json;
	}

}
