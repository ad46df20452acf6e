package dev.wharf.loadtests.harness;

import java.util.List;
import java.util.Map;

/**
 * The published figures each table is compared with, copied from the original pages
 * (cited in each report), so that a report and the index can print them beside Wharf's.
 * "failed" cells are 0.
 */
final class Originals {

	private Originals() {
	}

	static final String FILESTASH_BENCHMARK = "Filestash, \"Benchmarking results\" (filestash.app, 2019; "
			+ "github.com/mickael-kerjean/filestash-website, _posts/2019-05-06-benchmark.md)";

	static final String FILESTASH_LOADTEST = "Filestash, \"Load testing results\" (filestash.app, 2021; "
			+ "github.com/mickael-kerjean/filestash-website, _posts/2021-12-22-load-test.md), 4 CPUs, 8 GB";

	static final String RBCS = "RBCS, doc/benchmarks.md (github.com/woggioni/rbcs), Intel Celeron J3455, 14 ms RTT, 112 MiB/s link";

	static final String SOCKO = "Socko, \"Benchmarks for Socko v0.2.0\" (2012, github.com/mashupbots/socko site), "
			+ "Core i7 920 VM, ab 2.3 without -k";

	static final String PYFTPDLIB = "pyftpdlib, docs/benchmarks.rst (github.com/giampaolo/pyftpdlib), "
			+ "pyftpdlib 1.0.0 / proftpd 1.3.4 / vsftpd 2.3.5, Intel Core Duo 3.1 GHz";

	/** The grid's concurrency levels. */
	static final List<Integer> GRID = List.of(1, 5, 10, 20, 50, 100, 500, 1000);

	/** Filestash's container size matching each profile. */
	static final Map<String, String> FILESTASH_SIZE = Map.of("p96", "32MB of RAM on 1 core", "p128",
			"128MB of RAM on 2 cores", "p512", "512MB of RAM on 4 cores");

	/**
	 * Static file, list files, transcode image per level, by container size; 0 = failed.
	 */
	static final Map<String, int[][]> FILESTASH_GRID = Map.of("p96",
			new int[][] { { 3000, 1357, 284 }, { 4120, 2373, 364 }, { 4135, 2504, 374 }, { 4316, 2492, 394 },
					{ 4207, 2723, 344 }, { 4146, 2735, 0 }, { 4156, 1767, 0 }, { 4048, 0, 0 } },
			"p128",
			new int[][] { { 3101, 1322, 290 }, { 5288, 2449, 432 }, { 5639, 2742, 458 }, { 5858, 3015, 488 },
					{ 6152, 3323, 554 }, { 6235, 3690, 566 }, { 6117, 4012, 0 }, { 6138, 4126, 0 } },
			"p512", new int[][] { { 3069, 1336, 280 }, { 5664, 2970, 412 }, { 5833, 3523, 453 }, { 5936, 3953, 478 },
					{ 5860, 4124, 508 }, { 5564, 3282, 536 }, { 5863, 3554, 545 }, { 5826, 3481, 449 } });

	/**
	 * {@code ab -k -c N -n 50000 /}: concurrency, req/s, peak RAM in MB (0 = not given).
	 */
	static final int[][] FILESTASH_ROOT = { { 10, 5846, 0 }, { 100, 6308, 55 }, { 1000, 5817, 71 },
			{ 4000, 3369, 96 } };

	/** {@code ab -k -c 1000 -n 100000} ls over SFTP: req/s, peak RAM in MB. */
	static final int[] FILESTASH_LS_1000 = { 3519, 108 };

	/** Load testing results: part, concurrency, requests, req/s, failed. */
	static final Object[][] FILESTASH_LOADTEST_ROWS = { { "static", 500, 100_000, 18354.0, 26 },
			{ "static", 2100, 500_000, 18381.0, 0 }, { "ls-memory", 100, 100_000, 40788.0, 0 },
			{ "ls-memory", 1000, 100_000, 38665.0, 0 }, { "ls-sftp", 100, 50_000, 3748.0, 0 },
			{ "ls-sftp", 1000, 50_000, 3678.0, 0 } };

	/** RBCS: backend, CPU quota, size, connections, PUT, GET. */
	static final Object[][] RBCS_ROWS = { { "memory", 1.0, 128, 10, 7867, 13762 },
			{ "memory", 1.0, 128, 100, 7728, 14180 }, { "memory", 1.0, 512, 10, 7964, 10992 },
			{ "memory", 1.0, 512, 100, 8415, 12478 }, { "memory", 1.0, 4096, 10, 4268, 5395 },
			{ "memory", 1.0, 4096, 100, 5585, 8259 }, { "memory", 1.0, 65536, 10, 1063, 1185 },
			{ "memory", 1.0, 65536, 100, 1522, 1366 }, { "memory", 3.5, 128, 10, 11271, 14092 },
			{ "memory", 3.5, 128, 100, 16064, 24201 }, { "memory", 3.5, 512, 10, 11504, 13077 },
			{ "memory", 3.5, 512, 100, 17379, 22094 }, { "memory", 3.5, 4096, 10, 9151, 9489 },
			{ "memory", 3.5, 4096, 100, 13194, 18268 }, { "memory", 3.5, 65536, 10, 1590, 1174 },
			{ "memory", 3.5, 65536, 100, 1539, 1561 }, { "local", 1.0, 128, 10, 1478, 5771 },
			{ "local", 1.0, 128, 100, 3166, 8070 }, { "local", 1.0, 512, 10, 1717, 5895 },
			{ "local", 1.0, 512, 100, 1125, 6564 }, { "local", 1.0, 4096, 10, 819, 2509 },
			{ "local", 1.0, 4096, 100, 1136, 2365 }, { "local", 1.0, 65536, 10, 584, 632 },
			{ "local", 1.0, 65536, 100, 529, 635 }, { "local", 3.5, 128, 10, 1227, 3342 },
			{ "local", 3.5, 128, 100, 1156, 4035 }, { "local", 3.5, 512, 10, 979, 3294 },
			{ "local", 3.5, 512, 100, 1217, 3888 }, { "local", 3.5, 4096, 10, 535, 1805 },
			{ "local", 3.5, 4096, 100, 555, 1910 }, { "local", 3.5, 65536, 10, 301, 494 },
			{ "local", 3.5, 65536, 100, 353, 595 }, { "memcached", 1.0, 128, 10, 3380, 6083 },
			{ "memcached", 1.0, 128, 100, 3323, 4998 }, { "memcached", 1.0, 512, 10, 3924, 6086 },
			{ "memcached", 1.0, 512, 100, 3440, 5049 }, { "memcached", 1.0, 4096, 10, 3347, 5255 },
			{ "memcached", 1.0, 4096, 100, 3685, 4693 }, { "memcached", 1.0, 65536, 10, 1304, 1343 },
			{ "memcached", 1.0, 65536, 100, 1481, 1541 }, { "memcached", 3.5, 128, 10, 4667, 7984 },
			{ "memcached", 3.5, 128, 100, 4044, 8358 }, { "memcached", 3.5, 512, 10, 4177, 7828 },
			{ "memcached", 3.5, 512, 100, 4079, 8794 }, { "memcached", 3.5, 4096, 10, 4588, 6869 },
			{ "memcached", 3.5, 4096, 100, 5343, 7797 }, { "memcached", 3.5, 65536, 10, 1624, 1317 },
			{ "memcached", 3.5, 65536, 100, 1633, 1317 } };

	/**
	 * Socko: size, requests, then (server, seconds, req/s) for each server as published,
	 * fastest first.
	 */
	static final Object[][] SOCKO_ROWS = {
			{ 87, 500_000,
					new Object[][] { { "VertX", 41.391, 12079.99 }, { "Tomcat", 46.029, 10862.63 },
							{ "Socko", 46.139, 10836.92 }, { "Apache", 48.777, 10250.74 } } },
			{ 204_800, 100_000,
					new Object[][] { { "Socko", 18.325, 5457.01 }, { "Apache", 18.444, 5421.95 },
							{ "VertX", 19.734, 5067.43 }, { "Tomcat", 22.724, 4400.65 } } },
			{ 1_048_576, 20_000, new Object[][] { { "Socko", 16.608, 1204.25 }, { "Apache", 18.757, 1066.26 },
					{ "Tomcat", 26.123, 765.62 }, { "VertX", 35.905, 557.03 } } } };

	/**
	 * pyftpdlib's table (300 clients, 10 MB file): row, pyftpdlib 1.0.0, proftpd 1.3.4,
	 * vsftpd 2.3.5.
	 */
	static final Object[][] PYFTPDLIB_ROWS = {
			{ "STOR (client -> server)", "585.90 MB/sec", "600.49 MB/sec", "611.73 MB/sec" },
			{ "RETR (server -> client)", "1652.72 MB/sec", "1524.05 MB/sec", "1512.92 MB/sec" },
			{ "300 concurrent clients (connect, login)", "0.19 secs", "9.98 secs", "20.39 secs" },
			{ "STOR (1 file with 300 idle clients)", "585.59 MB/sec", "518.55 MB/sec", "610.23 MB/sec" },
			{ "RETR (1 file with 300 idle clients)", "1497.58 MB/sec", "1478.19 MB/sec", "1493.01 MB/sec" },
			{ "300 concurrent clients (RETR 10.0M file)", "3.41 secs", "3.60 secs", "3.67 secs" },
			{ "300 concurrent clients (STOR 10.0M file)", "8.60 secs", "11.56 secs", "9.82 secs" },
			{ "300 concurrent clients (QUIT)", "0.03 secs", "0.39 secs", "0.01 secs" } };

	/**
	 * pyftpdlib's memory table (rss - shared) with 300 clients: pyftpdlib, proftpd,
	 * vsftpd.
	 */
	static final String[] PYFTPDLIB_MEMORY_300 = { "8.8M", "568.6M", "140.9M" };

}
