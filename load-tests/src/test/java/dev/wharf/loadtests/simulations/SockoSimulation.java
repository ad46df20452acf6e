package dev.wharf.loadtests.simulations;

import java.util.ArrayList;
import java.util.List;

import dev.wharf.loadtests.AbLevels;
import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.TableSimulation;
import io.gatling.javaapi.core.ChainBuilder;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * Socko's "Benchmarks for Socko v0.2.0": an 87-byte file with {@code ab -n500000 -c100},
 * a 200 KB file with {@code -n100000 -c100} and a 1 MB file with {@code -n20000 -c100}.
 * The harness runs it against Wharf and, in the same run, against nginx serving the same
 * folder. Socko's ab ran without {@code -k} ({@code -DkeepAlive=false} reproduces that: a
 * new connection per request, and the levels' parts say {@value #WITHOUT_KEEP_ALIVE});
 * the default keeps connections alive, as the keep-alive clients ({@code ab -k}, wrk)
 * that module-static's target is set with do. The harness runs both.
 *
 * <p>
 * Parameters (besides {@link TableSimulation}'s): {@code files} (default
 * {@code small.html:87:500000,medium.bin:204800:100000,large.bin:1048576:20000}: name,
 * size, requests), {@code pathPrefix} (default {@code /static/}; {@code /} for nginx),
 * {@code concurrency} (default 100), {@code warmUp} (default {@value #DEFAULT_WARM_UP}:
 * requests of each file at the levels' concurrency before the first level, not counted; 0
 * for none). Socko's table was made against servers already running; without a warm-up
 * the first seconds of the 200 KB and 1 MB levels measured a JVM still compiling the path
 * that sends files (the 87-byte level warms a different one), which nginx does not need.
 */
public class SockoSimulation extends TableSimulation {

	/**
	 * Uncounted requests of each file before the levels, unless {@code -DwarmUp} says
	 * otherwise.
	 */
	public static final int DEFAULT_WARM_UP = 10_000;

	/**
	 * What a level's part adds to its size without keep-alive
	 * ({@code 87 B without keep-alive}), so that one run holds both kinds apart.
	 */
	public static final String WITHOUT_KEEP_ALIVE = " without keep-alive";

	/** Builds the levels from the system properties. */
	public SockoSimulation() {
		super("socko");
		String prefix = Parameters.text("pathPrefix", "/static/");
		int concurrency = Parameters.positive("concurrency", 100);
		int warmUp = Parameters.nonNegative("warmUp", DEFAULT_WARM_UP);
		List<ServedFile> files = new ArrayList<>();
		for (String file : List
			.of(Parameters.text("files", "small.html:87:500000,medium.bin:204800:100000,large.bin:1048576:20000")
				.split(","))) {
			String[] spec = file.trim().split(":");
			if (spec.length != 3) {
				throw new IllegalArgumentException("-Dfiles: " + file + " is not name:size:requests");
			}
			files.add(new ServedFile(spec[0], Parameters.byteSize("files", spec[1]),
					Parameters.byteSize("files", spec[2])));
		}
		if (warmUp > 0) {
			for (ServedFile file : files) {
				warmUp(concurrency, warmUp, file.get(prefix));
			}
		}
		for (ServedFile file : files) {
			level(Parameters.byteLabel(file.size()) + (this.keepAlive ? "" : WITHOUT_KEEP_ALIVE), concurrency,
					file.requests(), file.get(prefix));
		}
		start();
	}

	/** One file of the table: its name, size and the requests of its level. */
	private record ServedFile(String name, int size, int requests) {

		/** A checked GET of the file: status 200 and the whole length. */
		ChainBuilder get(String prefix) {
			return exec(AbLevels.checked(http(Parameters.byteLabel(this.size)).get(prefix + this.name),
					status().is(200), header("Content-Length").is(Integer.toString(this.size))));
		}

	}

}
