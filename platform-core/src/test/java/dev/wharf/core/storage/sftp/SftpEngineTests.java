package dev.wharf.core.storage.sftp;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.SocketFactory;

import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.testsupport.OpenSshServer;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.RemoteResourceInfo;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link SftpEngine} and {@link SftpSession} against a real OpenSSH {@code sshd}: answers
 * taken on the transport's own thread, requests sent together in one SSH message, and
 * every waiting or later request failed when the server goes away.
 */
class SftpEngineTests {

	private static final int TIMEOUT_MILLIS = 30_000;

	@RegisterExtension
	static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();

	@TempDir
	Path root;

	final AtomicInteger writes = new AtomicInteger();

	@BeforeEach
	void createFolder() throws IOException {
		Files.createDirectories(this.root.resolve("six"));
		for (int i = 1; i <= 6; i++) {
			Files.writeString(this.root.resolve("six/file-" + i), "content " + i);
		}
	}

	@Test
	void aConnectionRunsNoSftpReaderThreadOfItsOwn() throws Exception {
		try (SSHClient ssh = connect()) {
			SftpEngine engine = engine(ssh);
			RemotePaths paths = new RemotePaths(engine.canonicalize(this.root.toString()));
			assertThat(RemoteFolders.list(engine, paths, StoragePath.parse("/six")).entries()).hasSize(6);
			// sshj's own SFTP client reads every answer on a second thread per
			// connection ("sshj-PacketReader"); here the transport's reader hands them
			// over.
			assertThat(Thread.getAllStackTraces().keySet()).map(Thread::getName)
				.noneMatch(name -> name.startsWith("sshj-PacketReader"))
				.anyMatch(name -> name.startsWith("sshj-Reader") && name.contains(":" + sshd.server().port() + "-"));
		}
	}

	@Test
	void aListingBelowTheRootIsSentAsThreeSshMessages() throws Exception {
		try (SSHClient ssh = connect()) {
			SftpEngine engine = engine(ssh);
			RemotePaths paths = new RemotePaths(engine.canonicalize(this.root.toString()));
			int before = this.writes.get();
			List<RemoteResourceInfo> entries = RemoteFolders.list(engine, paths, StoragePath.parse("/six")).entries();
			int sent = this.writes.get() - before;
			assertThat(entries).extracting(RemoteResourceInfo::getName)
				.containsExactlyInAnyOrder("file-1", "file-2", "file-3", "file-4", "file-5", "file-6");
			// REALPATH with OPENDIR, both READDIRs, then CLOSE: five requests, three
			// messages (each a write of the socket).
			assertThat(sent).isEqualTo(3);
		}
	}

	@Test
	void requestsSentTogetherGetTheirOwnAnswers() throws Exception {
		try (SSHClient ssh = connect()) {
			SftpEngine engine = engine(ssh);
			String six = this.root.resolve("six").toString();
			List<Promise<Response, SFTPException>> answers = engine.requestTogether(
					engine.newRequest(PacketType.STAT).putString(six + "/file-1"),
					engine.newRequest(PacketType.STAT).putString(six + "/missing"),
					engine.newRequest(PacketType.STAT).putString(six + "/file-6"));
			assertThat(answers.get(0).retrieve(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).readFileAttributes().getSize())
				.isEqualTo("content 1".length());
			assertThat(answers.get(1).retrieve(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).readStatusCode())
				.isEqualTo(Response.StatusCode.NO_SUCH_FILE);
			assertThat(answers.get(2).retrieve(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).readFileAttributes().getSize())
				.isEqualTo("content 6".length());
		}
	}

	@Test
	void aServerThatGoesAwayFailsTheNextRequestsAtOnceAsConnectionFailures() throws Exception {
		try (SSHClient ssh = connect()) {
			SftpEngine engine = engine(ssh);
			assertThat(engine.canonicalize(this.root.toString())).isNotEmpty();
			sshd.server().kill();
			try {
				long start = System.nanoTime();
				for (int i = 0; i < 3; i++) {
					assertThatThrownBy(() -> engine.stat(this.root.toString())).isInstanceOfSatisfying(
							IOException.class, ex -> assertThat(SftpErrors.isConnectionFailure(ex)).isTrue());
				}
				// Well within the 30 s every request may wait for its answer.
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
			}
			finally {
				sshd.server().start();
			}
		}
	}

	private SSHClient connect() throws IOException {
		SSHClient ssh = new SSHClient(SftpConnector.config());
		ssh.setSocketFactory(new CountingSockets(this.writes));
		ssh.addHostKeyVerifier(sshd.server().hostKeyFingerprint());
		ssh.setConnectTimeout(TIMEOUT_MILLIS);
		ssh.getTransport().setTimeoutMs(TIMEOUT_MILLIS);
		ssh.connect(sshd.server().host(), sshd.server().port());
		ssh.authPublickey(sshd.server().user(), sshd.server().clientKey().toString());
		return ssh;
	}

	private static SftpEngine engine(SSHClient ssh) throws IOException {
		SftpEngine engine = new SftpEngine(ssh);
		engine.setTimeoutMs(TIMEOUT_MILLIS);
		return engine.init();
	}

	/** Sockets that count the writes of their output, one per SSH message. */
	private static final class CountingSockets extends SocketFactory {

		private final AtomicInteger writes;

		CountingSockets(AtomicInteger writes) {
			this.writes = writes;
		}

		@Override
		public Socket createSocket() {
			return new Socket() {

				@Override
				public OutputStream getOutputStream() throws IOException {
					return new FilterOutputStream(super.getOutputStream()) {

						@Override
						public void write(byte[] bytes, int offset, int length) throws IOException {
							CountingSockets.this.writes.incrementAndGet();
							this.out.write(bytes, offset, length);
						}

					};
				}

			};
		}

		@Override
		public Socket createSocket(String host, int port) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Socket createSocket(String host, int port, java.net.InetAddress localHost, int localPort) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Socket createSocket(java.net.InetAddress host, int port) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Socket createSocket(java.net.InetAddress address, int port, java.net.InetAddress localAddress,
				int localPort) {
			throw new UnsupportedOperationException();
		}

	}

}
