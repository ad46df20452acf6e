package dev.wharf.loadtests.simulations;

import java.util.List;

import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.TableSimulation;

/**
 * Filestash's "Benchmarking results" (2019): {@code ab -k -c N -n 1000} per column at N =
 * 1, 5, 10, 20, 50, 100, 500, 1000 for a static page ({@code /}), listing a folder
 * ({@code /api/files/ls?path=%2F}, over SFTP to an OpenSSH server on the same machine)
 * and a thumbnail ({@code /api/files/cat?path=…png&thumbnail=true}); then
 * {@code ab -k -c N -n 50000 /} at N = 10, 100, 1000, 4000 with the peak RAM; then the
 * SFTP listing at {@code -c 1000 -n 100000}. The harness runs it once per JVM profile, as
 * the original ran per container size.
 *
 * <p>
 * Parameters (besides {@link TableSimulation}'s): {@code parts} (default
 * {@code static,ls,thumbnail,root,ls-1000}), {@code levels}, {@code requests} (per grid
 * level, default 1000), {@code staticPath} (default {@code /}), {@code lsPath},
 * {@code thumbnailPath}, {@code user}, {@code password}, {@code sftpSession} (a login
 * body of its own for the listings and thumbnails, such as Filestash's sftp backend's;
 * default: the user's login), {@code warmUp} (default {@value #DEFAULT_WARM_UP}: requests
 * of the static page and of the listing at {@value #WARM_UP_CONNECTIONS} connections
 * before the first level, and a twentieth as many thumbnails, not counted; 0 for none).
 * The original ran ab against containers already running; without a warm-up the grid's
 * short levels (1,000 requests each) measured a JVM still compiling what they serve.
 */
public class FilestashBenchmarkSimulation extends TableSimulation {

	/** Uncounted requests of the page and of the listing before the levels. */
	public static final int DEFAULT_WARM_UP = 10_000;

	/** The warm-up's connections. */
	public static final int WARM_UP_CONNECTIONS = 10;

	/** Builds the levels from the system properties. */
	public FilestashBenchmarkSimulation() {
		super("filestash-benchmark");
		List<String> parts = Parameters.names("parts", "static,ls,thumbnail,root,ls-1000");
		List<Integer> grid = Parameters.positives("levels", "1,5,10,20,50,100,500,1000");
		int requests = Parameters.positive("requests", 1000);
		String staticPath = Parameters.text("staticPath", "/");
		String lsPath = Parameters.text("lsPath", "/sftp/");
		String thumbnailPath = Parameters.text("thumbnailPath", "/sftp/screenshot.png");
		FilestashApi api = (parts.contains("ls") || parts.contains("thumbnail") || parts.contains("ls-1000"))
				? FilestashApi.forBackend(this.baseUrl, "sftp") : null;
		int warmUp = Parameters.nonNegative("warmUp", DEFAULT_WARM_UP);
		if (warmUp > 0) {
			if (parts.contains("static") || parts.contains("root")) {
				warmUp(WARM_UP_CONNECTIONS, warmUp, FilestashApi.page(staticPath));
			}
			if (parts.contains("ls") || parts.contains("ls-1000")) {
				warmUp(WARM_UP_CONNECTIONS, warmUp, api.ls(lsPath));
			}
			if (parts.contains("thumbnail")) {
				warmUp(WARM_UP_CONNECTIONS, warmUp / 20, api.thumbnail(thumbnailPath));
			}
		}
		for (String part : parts) {
			switch (part) {
				case "static" -> grid.forEach((c) -> level("static", c, requests, FilestashApi.page(staticPath)));
				case "ls" -> grid.forEach((c) -> level("ls", c, requests, api.ls(lsPath)));
				case "thumbnail" -> grid.forEach((c) -> level("thumbnail", c, requests, api.thumbnail(thumbnailPath)));
				case "root" -> List.of(10, 100, 1000, 4000)
					.forEach((c) -> level("root", c, 50_000, FilestashApi.page(staticPath)));
				case "ls-1000" -> level("ls-1000", 1000, 100_000, api.ls(lsPath));
				default -> throw new IllegalArgumentException(
						"-Dparts: unknown part " + part + " (static, ls, thumbnail, root, ls-1000)");
			}
		}
		start();
	}

}
