package dev.wharf.loadtests.simulations;

import java.util.List;

import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.TableSimulation;

/**
 * Filestash's "Load testing results" (2021): a static page with
 * {@code ab -k -c 500 -n 100000} and {@code -c 2100 -n 500000}; {@code ls} of a folder on
 * the in-memory backend ({@code blackhole}: six entries) with {@code -c 100} and
 * {@code -c 1000}, {@code -n 100000}; {@code ls} over SFTP (OpenSSH on the same machine)
 * with {@code -c 100} and {@code -c 1000}, {@code -n 50000}. The {@code ls} requests
 * carry {@code Cookie: auth=…} and {@code X-Requested-With: XmlHttpRequest}, as in the
 * original commands.
 *
 * <p>
 * Parameters (besides {@link TableSimulation}'s): {@code parts} (default
 * {@code static,ls-memory,ls-sftp}), {@code staticPath} (default {@code /}; Filestash's
 * was {@code /login}), {@code lsMemoryPath} (default {@code /memory/}, filled with six
 * files first), {@code lsSftpPath} (default {@code /sftp/}), {@code user},
 * {@code password}, {@code memorySession} and {@code sftpSession} (login bodies of their
 * own for each backend, as Filestash's {@code blackhole} and {@code sftp} backends need;
 * default: the user's login), {@code warmUp} (default
 * {@value FilestashBenchmarkSimulation#DEFAULT_WARM_UP}: requests of each part at 100
 * connections before its first level, not counted; 0 for none).
 */
public class FilestashLoadTestSimulation extends TableSimulation {

	/** Six names, like the blackhole backend's listing. */
	static final List<String> MEMORY_FILES = List.of("1M.bin", "10M.bin", "100M.bin", "1G.bin", "10G.bin", "100G.bin");

	/** Builds the levels from the system properties. */
	public FilestashLoadTestSimulation() {
		super("filestash-loadtest");
		List<String> parts = Parameters.names("parts", "static,ls-memory,ls-sftp");
		String staticPath = Parameters.text("staticPath", "/");
		int warmUp = Parameters.nonNegative("warmUp", FilestashBenchmarkSimulation.DEFAULT_WARM_UP);
		for (String part : parts) {
			switch (part) {
				case "static" -> {
					warmUp(100, warmUp, FilestashApi.page(staticPath));
					level("static", 500, 100_000, FilestashApi.page(staticPath));
					level("static", 2100, 500_000, FilestashApi.page(staticPath));
				}
				case "ls-memory" -> {
					String path = Parameters.text("lsMemoryPath", "/memory/");
					FilestashApi api = FilestashApi.forBackend(this.baseUrl, "memory");
					if (!FilestashApi.ownSession("memory")) {
						// Wharf's memory mount starts empty; Filestash's blackhole lists
						// its six entries by itself.
						api.ensureFiles(path, MEMORY_FILES, 1024);
					}
					warmUp(100, warmUp, api.ls(path));
					level("ls-memory", 100, 100_000, api.ls(path));
					level("ls-memory", 1000, 100_000, api.ls(path));
				}
				case "ls-sftp" -> {
					String path = Parameters.text("lsSftpPath", "/sftp/");
					FilestashApi api = FilestashApi.forBackend(this.baseUrl, "sftp");
					warmUp(100, warmUp, api.ls(path));
					level("ls-sftp", 100, 50_000, api.ls(path));
					level("ls-sftp", 1000, 50_000, api.ls(path));
				}
				default -> throw new IllegalArgumentException(
						"-Dparts: unknown part " + part + " (static, ls-memory, ls-sftp)");
			}
		}
		start();
	}

}
