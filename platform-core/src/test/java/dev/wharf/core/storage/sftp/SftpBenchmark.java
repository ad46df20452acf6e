package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.testsupport.OpenSshServer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;

/**
 * Measures the {@code sftp} backend against OpenSSH's own clients on the same machine, in
 * the same run, against the same local {@code sshd} (started like the tests start it):
 * the download of a 100 MB file through {@link SftpStorage#read} versus {@code sftp} and
 * {@code scp} of the same file, and, for the file manager's {@code ls} benchmark, how
 * many listings of a 6-entry folder the storage serves with 100 in flight. Prints a
 * Markdown table. Not a test: run it by hand, see {@code docs/benchmarks/sftp.md}.
 */
public final class SftpBenchmark {

	private static final long FILE_SIZE = 100L * 1024 * 1024;

	private static double cpuPerDownload;

	private SftpBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int runs = Integer.getInteger("runs", 3);
		Duration listDuration = Duration.ofSeconds(Long.getLong("listSeconds", 10));
		Path work = Files.createTempDirectory("wharf-sftp-bench");
		try (OpenSshServer server = OpenSshServer.start(Files.createDirectory(work.resolve("server")))) {
			Path root = Files.createDirectory(work.resolve("root"));
			Path file = createFile(root.resolve("100M.bin"));
			Files.createDirectory(root.resolve("six"));
			for (int i = 1; i <= 6; i++) {
				Files.writeString(root.resolve("six/" + i + "M.bin"), "entry " + i);
			}
			Path knownHosts = Files.writeString(work.resolve("known_hosts"), server.knownHostsLine() + "\n");
			List<String> rows = new ArrayList<>();
			rows.add("| client | best MB/s | median MB/s | runs |");
			rows.add("|---|---|---|---|");
			try (SftpStorage storage = SftpTestMounts.create(SftpTestMounts.keyLogin(server, root))) {
				long cpuBefore = cpuNanos();
				rows.add(row("Wharf sftp storage (sshj, read-ahead " + RemoteChannels.READ_AHEAD + " x 32 KiB)",
						measure(runs, () -> download(storage))));
				cpuPerDownload = (cpuNanos() - cpuBefore) / 1e9 / (runs + 1);
			}
			List<String> ssh = List.of("-q", "-i", server.clientKey().toString(), "-o",
					"UserKnownHostsFile=" + knownHosts, "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes");
			Path batch = Files.writeString(work.resolve("batch"), "get " + file + " /dev/null\n");
			rows.add(row("OpenSSH `sftp` (get to /dev/null)",
					measure(runs, () -> run(concat(List.of("sftp"), ssh, List.of("-P", Integer.toString(server.port()),
							"-b", batch.toString(), server.user() + "@" + server.host()))))));
			// The test sshd serves SFTP only (ForceCommand internal-sftp), so scp uses
			// its default SFTP protocol.
			rows.add(row("OpenSSH `scp` (SFTP protocol, the default since 9.0)",
					measure(runs, () -> run(concat(List.of("scp"), ssh, List.of("-P", Integer.toString(server.port()),
							server.user() + "@" + server.host() + ":" + file, "/dev/null"))))));
			rows.forEach(System.out::println);
			System.out.printf(Locale.ROOT,
					"%nClient CPU per 100 MB download through the storage (this JVM, all threads): %.2f s%n%n",
					cpuPerDownload);
			System.out.println("| storage `list` of a 6-entry folder, 100 in flight | pool-size | listings/s |");
			System.out.println("|---|---|---|");
			for (String poolSize : List.of("4", "8")) {
				try (SftpStorage storage = SftpTestMounts.create(SftpTestMounts.keyLogin(server, root), "pool-size",
						poolSize)) {
					System.out.printf(Locale.ROOT, "| %s | %s | %.0f |%n", "Wharf sftp storage", poolSize,
							listingsPerSecond(storage, listDuration));
				}
			}
		}
		finally {
			deleteTree(work);
		}
	}

	private static long cpuNanos() {
		return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
	}

	private static Path createFile(Path file) throws IOException {
		byte[] chunk = new byte[1024 * 1024];
		SplittableRandom random = new SplittableRandom(1);
		try (OutputStream out = Files.newOutputStream(file)) {
			for (long written = 0; written < FILE_SIZE; written += chunk.length) {
				random.nextBytes(chunk);
				out.write(chunk);
			}
		}
		return file;
	}

	private static long download(SftpStorage storage) {
		AtomicLong bytes = new AtomicLong();
		storage.read(StoragePath.parse("/100M.bin"), ByteRange.all()).doOnNext(buffer -> {
			bytes.addAndGet(buffer.readableByteCount());
			DataBufferUtils.release(buffer);
		}).blockLast(Duration.ofMinutes(5));
		return bytes.get();
	}

	private static double listingsPerSecond(SftpStorage storage, Duration duration) {
		StoragePath six = StoragePath.parse("/six");
		storage.list(six).collectList().block(Duration.ofMinutes(1));
		long end = System.nanoTime() + duration.toNanos();
		AtomicLong done = new AtomicLong();
		long start = System.nanoTime();
		Flux.range(0, Integer.MAX_VALUE)
			.takeWhile(i -> System.nanoTime() < end)
			.flatMap(i -> storage.list(six).count().doOnNext(count -> {
				if (count != 6) {
					throw new IllegalStateException("listed " + count + " entries");
				}
				done.incrementAndGet();
			}), 100)
			.then()
			.block(duration.plusMinutes(1));
		return done.get() / ((System.nanoTime() - start) / 1e9);
	}

	private static long run(List<String> command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
			throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
		}
		return FILE_SIZE;
	}

	private static double[] measure(int runs, Transfer transfer) throws Exception {
		transfer.run();
		double[] rates = new double[runs];
		for (int i = 0; i < runs; i++) {
			long start = System.nanoTime();
			long bytes = transfer.run();
			if (bytes != FILE_SIZE) {
				throw new IllegalStateException("transferred " + bytes + " bytes");
			}
			rates[i] = bytes / 1e6 / ((System.nanoTime() - start) / 1e9);
		}
		Arrays.sort(rates);
		return rates;
	}

	private static String row(String client, double[] rates) {
		return String.format(Locale.ROOT, "| %s | %.0f | %.0f | %d |", client, rates[rates.length - 1],
				rates[rates.length / 2], rates.length);
	}

	@SafeVarargs
	private static List<String> concat(List<String>... parts) {
		List<String> all = new ArrayList<>();
		for (List<String> part : parts) {
			all.addAll(part);
		}
		return all;
	}

	private static void deleteTree(Path path) throws IOException {
		if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
			try (var children = Files.list(path)) {
				for (Path child : children.toList()) {
					deleteTree(child);
				}
			}
		}
		Files.deleteIfExists(path);
	}

	@FunctionalInterface
	private interface Transfer {

		long run() throws Exception;

	}

}
