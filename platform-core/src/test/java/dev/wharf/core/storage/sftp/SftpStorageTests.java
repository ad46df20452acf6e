package dev.wharf.core.storage.sftp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.testsupport.OpenSshServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.bytes;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static dev.wharf.core.storage.StorageTestSupport.sha256;
import static dev.wharf.core.storage.StorageTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The {@code sftp} backend's own behaviour against a real OpenSSH {@code sshd} (one for
 * the class): key logins, host key verification, the connection pool (sharing,
 * reconnecting, idle eviction), confinement with links, error mapping without leaks,
 * replacing without {@code posix-rename}, and where the blocking calls run.
 */
class SftpStorageTests {

	@RegisterExtension
	static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();

	@TempDir
	Path temp;

	Path root;

	@BeforeEach
	void createRoot() throws Exception {
		this.root = Files.createDirectory(this.temp.resolve("root"));
	}

	Map<String, String> keyLogin() {
		return SftpTestMounts.keyLogin(sshd.server(), this.root);
	}

	static StoragePath path(String path) {
		return StoragePath.parse(path);
	}

	@Test
	void logsInWithAnInlineKeyAndWithAnEncryptedKeyFile() throws Exception {
		try (SftpStorage inline = SftpTestMounts.create(keyLogin(), "private-key",
				Files.readString(sshd.server().clientKey()))) {
			assertThat(inline.stat(StoragePath.root()).block(TIMEOUT).type()).isEqualTo(EntryType.DIRECTORY);
		}
		Path encrypted = this.temp.resolve("id_encrypted");
		OpenSshServer.generateKey(encrypted, "correct horse", "wharf-test-encrypted");
		sshd.server().authorize(this.temp.resolve("id_encrypted.pub"));
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "private-key", "file:" + encrypted, "passphrase",
				"correct horse")) {
			storage.write(path("/k.txt"), content("key"), WriteOptions.replace()).block(TIMEOUT);
			assertThat(Files.readString(this.root.resolve("k.txt"))).isEqualTo("key");
		}
		assertThatThrownBy(() -> SftpTestMounts.create(keyLogin(), "private-key", "file:" + encrypted, "passphrase",
				"wrong horse"))
			.isInstanceOfSatisfying(InvalidConfigurationException.class, ex -> {
				assertThat(ex.property()).isEqualTo("wharf.storage.mounts.test.passphrase");
				assertThat(ex.getMessage()).doesNotContain("wrong horse");
			});
		assertThatThrownBy(() -> SftpTestMounts.create(keyLogin(), "private-key", "file:" + encrypted))
			.isInstanceOfSatisfying(InvalidConfigurationException.class,
					ex -> assertThat(ex.property()).isEqualTo("wharf.storage.mounts.test.private-key"));
	}

	@Test
	void logsInWithRsaKeysInPemAndPkcs8Formats() throws Exception {
		for (String format : List.of("PEM", "PKCS8")) {
			Path key = this.temp.resolve("id_rsa_" + format);
			OpenSshServer.generateKey(key, "", "wharf-test-rsa", "-t", "rsa", "-b", "3072", "-m", format);
			sshd.server().authorize(this.temp.resolve("id_rsa_" + format + ".pub"));
			try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "private-key", Files.readString(key))) {
				assertThat(storage.stat(StoragePath.root()).block(TIMEOUT).isDirectory()).as(format).isTrue();
			}
		}
	}

	@Test
	void aFingerprintTrustsTheServerToo() {
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "known-hosts", null, "host-key-fingerprint",
				sshd.server().hostKeyFingerprint())) {
			assertThat(storage.stat(StoragePath.root()).block(TIMEOUT).isDirectory()).isTrue();
		}
	}

	@Test
	void aServerWithAnotherHostKeyIsRefusedBeforeLoggingIn() throws Exception {
		Path other = this.temp.resolve("other_host_key");
		OpenSshServer.generateKey(other, "", "not-the-server");
		String otherKey = Files.readString(this.temp.resolve("other_host_key.pub")).strip();
		String[] parts = otherKey.split("\\s+");
		long logins = sshd.server().acceptedLogins();
		Path knownHostsFile = Files.writeString(this.temp.resolve("known_hosts"),
				"[" + sshd.server().host() + "]:" + sshd.server().port() + " " + parts[0] + " " + parts[1] + "\n");
		List<Map<String, String>> distrusting = List.of(Map.of("known-hosts", "file:" + knownHostsFile),
				Map.of("host-key-fingerprint", OpenSshServer.fingerprint(otherKey)),
				// A known_hosts that does not know this host at all.
				Map.of("known-hosts",
						"[192.0.2.1]:" + sshd.server().port() + " " + sshd.server().knownHostsLine().split(" ", 2)[1]));
		for (Map<String, String> trust : distrusting) {
			Map<String, String> properties = new java.util.LinkedHashMap<>(keyLogin());
			properties.remove("known-hosts");
			properties.putAll(trust);
			try (SftpStorage storage = SftpTestMounts.create(properties)) {
				assertThatThrownBy(() -> storage.stat(StoragePath.root()).block(TIMEOUT))
					.isInstanceOf(BackendUnavailableException.class)
					.hasMessageContaining("host key that is not trusted");
			}
		}
		assertThat(sshd.server().acceptedLogins()).isEqualTo(logins);
	}

	@Test
	void aServerKilledMidDownloadFailsTheDownloadAndTheNextRequestReconnects() throws Exception {
		long size = 32L * 1024 * 1024;
		try (SftpStorage storage = SftpTestMounts.create(keyLogin())) {
			storage.write(path("/big.bin"), random(9, size, 64 * 1024), WriteOptions.replace()).block(TIMEOUT);
			AtomicLong received = new AtomicLong();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			CountDownLatch started = new CountDownLatch(1);
			CountDownLatch ended = new CountDownLatch(1);
			BaseSubscriber<DataBuffer> download = new BaseSubscriber<>() {

				@Override
				protected void hookOnSubscribe(Subscription subscription) {
					request(4);
				}

				@Override
				protected void hookOnNext(DataBuffer buffer) {
					received.addAndGet(buffer.readableByteCount());
					DataBufferUtils.release(buffer);
					started.countDown();
				}

				@Override
				protected void hookOnError(Throwable error) {
					failure.set(error);
					ended.countDown();
				}

				@Override
				protected void hookOnComplete() {
					ended.countDown();
				}

			};
			storage.read(path("/big.bin"), ByteRange.all()).subscribe(download);
			assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
			sshd.server().kill();
			download.request(Long.MAX_VALUE);
			assertThat(ended.await(60, TimeUnit.SECONDS)).isTrue();
			assertThat(failure.get()).as("the download must fail, not end short")
				.isInstanceOf(BackendUnavailableException.class);
			assertThat(received.get()).isLessThan(size);

			sshd.server().start();
			assertThat(storage.stat(path("/big.bin")).block(TIMEOUT).size()).isEqualTo(size);
			assertThat(sha256(storage.read(path("/big.bin"), ByteRange.all())).block(TIMEOUT))
				.isEqualTo(sha256(random(9, size, 64 * 1024)).block(TIMEOUT));
		}
	}

	@ParameterizedTest
	@CsvSource({ "'', 2097152", "64KB, 65536", "256KB, 262144" })
	void theSharedWindowSizeSetsEveryConnectionsWindowWhichSendsAdjustmentsAtOnceAndWholeFilesStillMove(String setting,
			long window) throws Exception {
		long size = 5L * 1024 * 1024 + 17;
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), SftpStorageProperties.WINDOW_SIZE,
				setting.isEmpty() ? null : setting)) {
			assertThat(storage.<Long>onPooledConnection((lease) -> lease.connection().windowSize())).isEqualTo(window);
			assertThat(storage.<Boolean>onPooledConnection((lease) -> lease.connection().sendsAtOnce()))
				.as("TCP_NODELAY on the SSH connection")
				.isTrue();
			storage.write(path("/w.bin"), random(5, size, 64 * 1024), WriteOptions.replace()).block(TIMEOUT);
			assertThat(sha256(storage.read(path("/w.bin"), ByteRange.all())).block(TIMEOUT))
				.isEqualTo(sha256(random(5, size, 64 * 1024)).block(TIMEOUT));
		}
	}

	@Test
	void fiftyConcurrentListingsShareAPoolOfFourConnections() throws Exception {
		Files.createDirectory(this.root.resolve("six"));
		for (int i = 1; i <= 6; i++) {
			Files.writeString(this.root.resolve("six/file-" + i), "content " + i);
		}
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "pool-size", "4")) {
			long loginsBefore = sshd.server().acceptedLogins();
			List<Mono<List<FileEntry>>> listings = IntStream.range(0, 50)
				.mapToObj(i -> storage.list(path("/six")).collectList())
				.toList();
			List<List<FileEntry>> results = Flux.merge(listings).collectList().block(TIMEOUT);
			assertThat(results).hasSize(50).allSatisfy(entries -> assertThat(entries).hasSize(6));
			assertThat(storage.connections()).isBetween(1, 4);
			// The mount opened one connection at start-up; at most three more may follow.
			assertThat(sshd.server().acceptedLogins() - loginsBefore).isLessThanOrEqualTo(3);
		}
	}

	@Test
	void pipelinedListingsSeeEveryEntryOfBigFoldersAndFoldersBehindLinks() throws Exception {
		// OpenSSH answers READDIR with at most 100 names: 250 entries take several
		// answers, two in flight.
		Path big = Files.createDirectories(this.root.resolve("real/big"));
		for (int i = 0; i < 250; i++) {
			Files.writeString(big.resolve("file-" + i), "x");
		}
		Files.createSymbolicLink(this.root.resolve("via"), Path.of("real"));
		Files.writeString(this.root.resolve("plain.txt"), "not a folder");
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "pool-size", "1")) {
			for (String folder : List.of("/real/big", "/via/big")) {
				List<String> names = storage.list(path(folder)).map(FileEntry::name).collectList().block(TIMEOUT);
				assertThat(names).as(folder)
					.hasSize(250)
					.doesNotHaveDuplicates()
					.allMatch(name -> name.startsWith("file-"));
				assertThat(storage.list(path(folder)).blockFirst(TIMEOUT).path().toString()).startsWith(folder + "/");
			}
			assertThatThrownBy(() -> storage.list(path("/plain.txt")).collectList().block(TIMEOUT))
				.isInstanceOf(ConflictException.class);
			assertThatThrownBy(() -> storage.list(path("/missing")).collectList().block(TIMEOUT))
				.isInstanceOf(NotFoundException.class);
			// The one connection still answers in order after the discarded handles and
			// unread answers.
			assertThat(storage.list(path("/real")).map(FileEntry::name).collectList().block(TIMEOUT))
				.containsExactly("big");
		}
	}

	@Test
	void idleConnectionsAreClosedAndReopenedOnUse() {
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "idle-timeout", "1s")) {
			storage.stat(StoragePath.root()).block(TIMEOUT);
			long logins = sshd.server().acceptedLogins();
			await().atMost(Duration.ofSeconds(60)).until(() -> storage.connections() == 0);
			assertThat(storage.stat(StoragePath.root()).block(TIMEOUT).isDirectory()).isTrue();
			assertThat(sshd.server().acceptedLogins()).isEqualTo(logins + 1);
		}
	}

	@Test
	void linksAreFollowedInsideTheRootAndRefusedOutOfIt() throws Exception {
		Path outside = Files.createDirectory(this.temp.resolve("outside"));
		Files.writeString(outside.resolve("secret.txt"), "canary-outside");
		Files.createSymbolicLink(this.root.resolve("out"), outside);
		Files.createSymbolicLink(this.root.resolve("up"), Path.of(".."));
		Files.createDirectory(this.root.resolve("real"));
		Files.writeString(this.root.resolve("real/inside.txt"), "inside");
		Files.createSymbolicLink(this.root.resolve("in"), Path.of("real"));
		try (SftpStorage storage = SftpTestMounts.create(keyLogin())) {
			for (String escape : List.of("/out", "/out/secret.txt", "/up", "/up/outside/secret.txt")) {
				assertThatThrownBy(() -> storage.stat(path(escape)).block(TIMEOUT)).as(escape)
					.isInstanceOf(AccessDeniedException.class);
				assertThatThrownBy(() -> bytes(storage.read(path(escape), ByteRange.all()))).as(escape)
					.isInstanceOf(AccessDeniedException.class);
			}
			assertThatThrownBy(() -> storage.list(path("/out")).collectList().block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class);
			assertThatThrownBy(
					() -> storage.write(path("/out/new.txt"), content("x"), WriteOptions.replace()).block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class);
			assertThatThrownBy(() -> storage.createDirectory(path("/out/dir")).block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class);
			assertThatThrownBy(
					() -> storage.move(path("/real/inside.txt"), path("/out/moved.txt"), false).block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class);
			assertThatThrownBy(() -> storage.write(path("/out"), content("x"), WriteOptions.append()).block(TIMEOUT))
				.isInstanceOf(AccessDeniedException.class);
			try (Stream<Path> left = Files.list(outside)) {
				assertThat(left).extracting(file -> file.getFileName().toString()).containsExactly("secret.txt");
			}
			assertThat(text(storage.read(path("/in/inside.txt"), ByteRange.all()))).isEqualTo("inside");
			Map<String, EntryType> listed = storage.list(StoragePath.root())
				.collectMap(FileEntry::name, FileEntry::type)
				.block(TIMEOUT);
			assertThat(listed).containsExactlyInAnyOrderEntriesOf(Map.of("out", EntryType.OTHER, "up", EntryType.OTHER,
					"in", EntryType.DIRECTORY, "real", EntryType.DIRECTORY));
			// Deleting a link removes the link, never what it leads to.
			storage.delete(path("/out"), true).block(TIMEOUT);
			assertThat(outside.resolve("secret.txt")).hasContent("canary-outside");
		}
	}

	@Test
	void aRootReachedThroughALinkIsConfinedToWhereTheLinkLeads() throws Exception {
		Files.writeString(this.root.resolve("here.txt"), "here");
		Path linkedRoot = Files.createSymbolicLink(this.temp.resolve("linked-root"), this.root);
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "root", linkedRoot.toString())) {
			assertThat(text(storage.read(path("/here.txt"), ByteRange.all()))).isEqualTo("here");
		}
	}

	@Test
	void failuresAreMappedWithoutNamingTheServerPathOrTheSecrets() throws Exception {
		String password = "pa55-" + System.nanoTime();
		try (SftpStorage storage = SftpTestMounts.create(keyLogin(), "password", password)) {
			assertThatThrownBy(() -> storage.stat(path("/missing/file")).block(TIMEOUT))
				.isInstanceOf(NotFoundException.class)
				.hasMessage("Not found: /missing/file");
			storage.write(path("/exists"), content("x"), WriteOptions.replace()).block(TIMEOUT);
			assertThatThrownBy(
					() -> storage.write(path("/exists"), content("y"), WriteOptions.createNew()).block(TIMEOUT))
				.isInstanceOf(AlreadyExistsException.class)
				.hasMessageNotContaining(this.root.toString());
		}
		try (SftpStorage wrongUser = SftpTestMounts.create(keyLogin(), "username", "no-such-user-here", "password",
				password)) {
			assertThatThrownBy(() -> wrongUser.stat(StoragePath.root()).block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("refused the mount's login")
				.hasMessageNotContaining(password);
		}
		try (SftpStorage missingRoot = SftpTestMounts.create(keyLogin(), "root",
				this.temp.resolve("gone").toString())) {
			assertThatThrownBy(() -> missingRoot.list(StoragePath.root()).collectList().block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("root folder")
				.hasMessageNotContaining(this.temp.toString());
		}
		int closedPort;
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		try (SftpStorage unreachable = SftpTestMounts.create(keyLogin(), "port", Integer.toString(closedPort))) {
			assertThatThrownBy(() -> unreachable.stat(StoragePath.root()).block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class)
				.hasMessageContaining("cannot be reached")
				.hasMessageNotContaining(Integer.toString(closedPort));
			assertThatThrownBy(() -> unreachable.checkHealth().block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class);
		}
	}

	@Test
	void everySshCallRunsOnTheMountsOwnThreads() {
		Set<String> threads = ConcurrentHashMap.newKeySet();
		try (SftpStorage storage = SftpTestMounts.create(keyLogin())) {
			storage
				.write(path("/t.bin"), random(1, 300_000, 8192).publishOn(reactor.core.scheduler.Schedulers.parallel()),
						WriteOptions.replace())
				.doOnNext(entry -> threads.add(Thread.currentThread().getName()))
				.block(TIMEOUT);
			storage.read(path("/t.bin"), ByteRange.all()).doOnNext(buffer -> {
				threads.add(Thread.currentThread().getName());
				DataBufferUtils.release(buffer);
			}).blockLast(TIMEOUT);
			storage.list(StoragePath.root())
				.doOnNext(entry -> threads.add(Thread.currentThread().getName()))
				.blockLast(TIMEOUT);
		}
		assertThat(threads).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("wharf-sftp-test"));
	}

	@Test
	void withoutPosixRenameReplacingStillNeverShowsAPartialFile() throws Exception {
		try (SftpStorage storage = new SftpStorageProvider().create(SftpTestMounts.definition(keyLogin()), false)) {
			assertThat(storage.capabilities()).doesNotContain(Capability.ATOMIC_WRITE, Capability.ATOMIC_MOVE);
			storage.write(path("/r.txt"), content("first"), WriteOptions.replace()).block(TIMEOUT);
			storage.write(path("/r.txt"), content("second"), WriteOptions.replace()).block(TIMEOUT);
			assertThat(Files.readString(this.root.resolve("r.txt"))).isEqualTo("second");
			assertThatThrownBy(
					() -> storage.write(path("/r.txt"), content("third"), WriteOptions.createNew()).block(TIMEOUT))
				.isInstanceOf(AlreadyExistsException.class);
			storage.write(path("/other.txt"), content("moved over"), WriteOptions.replace()).block(TIMEOUT);
			storage.move(path("/other.txt"), path("/r.txt"), true).block(TIMEOUT);
			assertThat(Files.readString(this.root.resolve("r.txt"))).isEqualTo("moved over");

			// Concurrent replaces race between their renames: each retries a few times,
			// then gives up clearly.
			List<Mono<Integer>> writes = IntStream.range(0, 12)
				.mapToObj(i -> storage
					.write(path("/contended.bin"), random(500 + i, 100_000, 16 * 1024), WriteOptions.replace())
					.thenReturn(i)
					.onErrorResume(ConflictException.class, tooBusy -> Mono.empty()))
				.toList();
			List<Integer> succeeded = Flux.merge(writes).collectList().block(TIMEOUT);
			assertThat(succeeded).isNotEmpty();
			Set<String> candidates = succeeded.stream()
				.map(i -> sha256(random(500 + i, 100_000, 16 * 1024)).block(TIMEOUT))
				.collect(Collectors.toSet());
			assertThat(candidates)
				.contains(sha256(storage.read(path("/contended.bin"), ByteRange.all())).block(TIMEOUT));
		}
		try (Stream<Path> files = Files.list(this.root)) {
			assertThat(files.map(file -> file.getFileName().toString())).containsExactlyInAnyOrder("r.txt",
					"contended.bin");
		}
	}

}
