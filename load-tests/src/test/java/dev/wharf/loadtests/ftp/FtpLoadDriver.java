package dev.wharf.loadtests.ftp;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPReply;

import dev.wharf.loadtests.LevelRecorder;
import dev.wharf.loadtests.Parameters;

/**
 * An FTP soak driver (Gatling has no FTP): {@code clients} connections log in at once,
 * then each repeats STOR of a {@code size} file, RETR of it (checking the length) and
 * LIST until {@code seconds} have passed or each has done {@code rounds} rounds, then
 * QUIT. Every operation is timed and counted per kind, and written to the same results
 * file as the HTTP tables. Uses Apache Commons Net in passive binary mode, one platform
 * thread per connection (Java 17 has no virtual threads).
 *
 * <p>
 * System properties: {@code host} (127.0.0.1), {@code port} (2121), {@code user} (bench),
 * {@code password}, {@code clients} (10), {@code seconds} (10), {@code rounds}
 * (unbounded), {@code size} (1M), {@code target} (wharf), {@code results}
 * (target/loadtests/results.tsv). The exit status is 1 when any operation failed.
 */
public final class FtpLoadDriver {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private final String host = Parameters.text("host", "127.0.0.1");

	private final int port = Parameters.positive("port", 2121);

	private final String user = Parameters.text("user", "bench");

	private final String password = Parameters.text("password", "");

	private final int clients = Parameters.positive("clients", 10);

	private final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Parameters.positive("seconds", 10));

	private final int rounds = Parameters.positive("rounds", Integer.MAX_VALUE);

	private final int size = Parameters.byteSize("size", Parameters.text("size", "1M"));

	private final LevelRecorder recorder = new LevelRecorder("ftp", Parameters.text("target", "wharf"));

	private final LevelRecorder.Level login;

	private final LevelRecorder.Level stor;

	private final LevelRecorder.Level retr;

	private final LevelRecorder.Level list;

	private final AtomicInteger failures = new AtomicInteger();

	FtpLoadDriver() {
		String label = Parameters.byteLabel(this.size);
		this.login = this.recorder.declare("login", "connect+login", this.clients);
		this.stor = this.recorder.declare("stor", "STOR " + label, this.clients);
		this.retr = this.recorder.declare("retr", "RETR " + label, this.clients);
		this.list = this.recorder.declare("list", "LIST", this.clients);
	}

	/**
	 * Runs the soak and writes its results.
	 * @param args none; everything comes from system properties
	 * @throws Exception when the driver itself cannot run
	 */
	public static void main(String[] args) throws Exception {
		int failed = soak();
		if (failed > 0) {
			System.err.println(failed + " FTP operations failed");
			System.exit(1);
		}
	}

	/**
	 * Runs the soak with the system properties and appends its results to the results
	 * file.
	 * @return the number of failed operations
	 * @throws InterruptedException when interrupted while waiting for the clients
	 */
	public static int soak() throws InterruptedException {
		FtpLoadDriver driver = new FtpLoadDriver();
		int failed = driver.run();
		driver.recorder.write(Path.of(Parameters.text("results", "target/loadtests/results.tsv")));
		return failed;
	}

	/**
	 * Runs every client to the end.
	 * @return the number of failed operations
	 * @throws InterruptedException when interrupted while waiting for the clients
	 */
	int run() throws InterruptedException {
		ExecutorService pool = Executors.newFixedThreadPool(this.clients, (task) -> {
			Thread thread = new Thread(task, "ftp-client");
			thread.setDaemon(true);
			return thread;
		});
		List<Future<?>> clients = new ArrayList<>();
		for (int i = 0; i < this.clients; i++) {
			int client = i;
			clients.add(pool.submit(() -> client(client)));
		}
		pool.shutdown();
		for (Future<?> client : clients) {
			try {
				client.get();
			}
			catch (java.util.concurrent.ExecutionException ex) {
				this.failures.incrementAndGet();
				ex.getCause().printStackTrace();
			}
		}
		return this.failures.get();
	}

	private void client(int client) {
		FTPClient ftp = new FTPClient();
		ftp.setConnectTimeout((int) TIMEOUT.toMillis());
		ftp.setDefaultTimeout((int) TIMEOUT.toMillis());
		ftp.setDataTimeout(TIMEOUT);
		List.of(this.login, this.stor, this.retr, this.list).forEach(LevelRecorder.Level::userStarted);
		try {
			long start = System.nanoTime();
			boolean in;
			try {
				in = connect(ftp);
			}
			catch (IOException ex) {
				this.login.request(false, -1);
				throw ex;
			}
			this.login.request(in, micros(start));
			if (!in) {
				this.failures.incrementAndGet();
				return;
			}
			String name = "soak-" + client + ".bin";
			byte[] content = new byte[this.size];
			for (int round = 0; round < this.rounds && System.nanoTime() < this.deadline; round++) {
				timed(this.stor, () -> {
					try (InputStream body = new ByteArrayInputStream(content)) {
						return ftp.storeFile(name, body);
					}
				});
				timed(this.retr, () -> retrieve(ftp, name) == this.size);
				timed(this.list, () -> ftp.listFiles() != null && FTPReply.isPositiveCompletion(ftp.getReplyCode()));
			}
			ftp.logout();
		}
		catch (IOException ex) {
			this.failures.incrementAndGet();
			System.err.println("FTP client " + client + ": " + ex);
		}
		finally {
			disconnect(ftp);
			List.of(this.login, this.stor, this.retr, this.list).forEach(LevelRecorder.Level::userFinished);
		}
	}

	private boolean connect(FTPClient ftp) throws IOException {
		ftp.connect(this.host, this.port);
		if (!FTPReply.isPositiveCompletion(ftp.getReplyCode()) || !ftp.login(this.user, this.password)) {
			System.err.println("FTP login refused: " + ftp.getReplyString().trim());
			return false;
		}
		ftp.enterLocalPassiveMode();
		return ftp.setFileType(FTP.BINARY_FILE_TYPE);
	}

	private long retrieve(FTPClient ftp, String name) throws IOException {
		long total = 0;
		try (InputStream in = ftp.retrieveFileStream(name)) {
			if (in == null) {
				return -1;
			}
			byte[] buffer = new byte[64 * 1024];
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				total += read;
			}
		}
		return ftp.completePendingCommand() ? total : -1;
	}

	private void timed(LevelRecorder.Level level, Operation operation) throws IOException {
		long start = System.nanoTime();
		boolean ok = operation.run();
		level.request(ok, micros(start));
		if (!ok) {
			this.failures.incrementAndGet();
		}
	}

	private static long micros(long startNanos) {
		return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNanos);
	}

	private static void disconnect(FTPClient ftp) {
		if (ftp.isConnected()) {
			try {
				ftp.disconnect();
			}
			catch (IOException ex) {
				// Closing anyway.
			}
		}
	}

	@FunctionalInterface
	private interface Operation {

		boolean run() throws IOException;

	}

}
