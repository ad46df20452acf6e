package dev.wharf.loadtests.simulations;

import java.util.List;

import dev.wharf.loadtests.AbLevels;
import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.TableSimulation;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * Socko's "Benchmarks for Socko v0.2.0": an 87-byte file with {@code ab -n500000 -c100}, a 200 KB file with
 * {@code -n100000 -c100} and a 1 MB file with {@code -n20000 -c100}. The harness runs it against Wharf and, in
 * the same run, against nginx serving the same folder. Socko's ab ran without {@code -k}
 * ({@code -DkeepAlive=false} reproduces that: a new connection per request); the default keeps connections alive,
 * as module-static's issue asks.
 *
 * <p>Parameters (besides {@link TableSimulation}'s): {@code files} (default
 * {@code small.html:87:500000,medium.bin:204800:100000,large.bin:1048576:20000}: name, size, requests),
 * {@code pathPrefix} (default {@code /static/}; {@code /} for nginx), {@code concurrency} (default 100).
 */
public class SockoSimulation extends TableSimulation {

	/** Builds the levels from the system properties. */
	public SockoSimulation() {
		super("socko");
		String prefix = Parameters.text("pathPrefix", "/static/");
		int concurrency = Parameters.positive("concurrency", 100);
		for (String file : List.of(Parameters.text("files",
				"small.html:87:500000,medium.bin:204800:100000,large.bin:1048576:20000").split(","))) {
			String[] spec = file.trim().split(":");
			if (spec.length != 3) {
				throw new IllegalArgumentException("-Dfiles: " + file + " is not name:size:requests");
			}
			int size = Parameters.byteSize("files", spec[1]);
			int requests = Parameters.byteSize("files", spec[2]);
			String part = Parameters.byteLabel(size);
			level(part, concurrency, requests, exec(AbLevels.checked(http(part).get(prefix + spec[0]),
					status().is(200), header("Content-Length").is(Integer.toString(size)))));
		}
		start();
	}

}
