package dev.wharf.loadtests.simulations;

import dev.wharf.loadtests.AbLevels;
import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.TableSimulation;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * Not a published table: {@code GET /actuator/health} level by level ({@code -Dlevels},
 * default 1,10,100; {@code -Drequests} per level, default 2000). It needs no module, so
 * it measures the JVM profiles themselves (start-up, memory under load) and keeps the
 * harness honest while the modules are being built.
 */
public class ActuatorSimulation extends TableSimulation {

	/** Builds the levels from the system properties. */
	public ActuatorSimulation() {
		super("actuator");
		String path = Parameters.text("path", "/actuator/health");
		int requests = Parameters.positive("requests", 2000);
		for (int concurrency : Parameters.positives("levels", "1,10,100")) {
			level("health", concurrency, requests, exec(AbLevels.checked(http("health").get(path), status().is(200))));
		}
		start();
	}

}
