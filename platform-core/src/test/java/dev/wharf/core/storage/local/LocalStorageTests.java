package dev.wharf.core.storage.local;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.testsupport.Tmpfs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.random;
import static dev.wharf.core.storage.StorageTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link LocalStorage} beyond the contract: links of every kind, temporary
 * files, disk full, and the provider's handling of the root folder.
 */
class LocalStorageTests {

	@TempDir
	Path temp;

	Path root;

	Path outside;

	LocalStorage storage;

	@BeforeEach
	void setUp() throws Exception {
		this.root = Files.createDirectory(this.temp.resolve("root"));
		this.outside = Files.createDirectory(this.temp.resolve("outside"));
		Files.writeString(this.outside.resolve("secret.txt"), "canary");
		this.storage = new LocalStorage("test", this.root, true, 4);
	}

	@AfterEach
	void tearDown() {
		this.storage.close();
	}

	@Test
	void linksInsideTheRootAreFollowed() throws Exception {
		Files.createDirectories(this.root.resolve("real/dir"));
		Files.writeString(this.root.resolve("real/dir/file"), "inside");
		Files.createSymbolicLink(this.root.resolve("alias"), this.root.resolve("real/dir"));
		Files.createSymbolicLink(this.root.resolve("relative"), Path.of("real/dir/file"));
		assertThat(read("/alias/file")).isEqualTo("inside");
		assertThat(read("/relative")).isEqualTo("inside");
		assertThat(this.storage.list(StoragePath.root()).collectList().block(TIMEOUT))
			.filteredOn(entry -> entry.name().equals("alias"))
			.singleElement()
			.extracting(FileEntry::type)
			.isEqualTo(EntryType.DIRECTORY);
		this.storage.write(path("/alias/new"), content("via link"), WriteOptions.replace()).block(TIMEOUT);
		assertThat(Files.readString(this.root.resolve("real/dir/new"))).isEqualTo("via link");
	}

	@Test
	void aFolderLinkOutOfTheRootCannotBeUsedForAnything() throws Exception {
		Files.createSymbolicLink(this.root.resolve("out"), this.outside);
		assertDenied(() -> read("/out/secret.txt"));
		assertDenied(() -> this.storage.list(path("/out")).collectList().block(TIMEOUT));
		assertDenied(() -> this.storage.write(path("/out/new"), content("x"), WriteOptions.replace()).block(TIMEOUT));
		assertDenied(() -> this.storage.createDirectory(path("/out/dir")).block(TIMEOUT));
		assertDenied(() -> this.storage.delete(path("/out/secret.txt"), false).block(TIMEOUT));
		assertDenied(() -> this.storage.localFile(path("/out/secret.txt")).block(TIMEOUT));
		Files.writeString(this.root.resolve("mine"), "m");
		assertDenied(() -> this.storage.move(path("/mine"), path("/out/mine"), false).block(TIMEOUT));
		assertDenied(() -> this.storage.copy(path("/mine"), path("/out/mine"), false).block(TIMEOUT));
		assertThat(this.outside).isDirectoryNotContaining(p -> !p.getFileName().toString().equals("secret.txt"));
		assertThat(Files.readString(this.outside.resolve("secret.txt"))).isEqualTo("canary");
	}

	@Test
	void aDanglingLinkIsNeitherReadNorWrittenThrough() throws Exception {
		Path target = this.outside.resolve("created-by-attacker");
		Files.createSymbolicLink(this.root.resolve("dangling"), target);
		assertDenied(() -> this.storage.stat(path("/dangling")).block(TIMEOUT));
		assertDenied(() -> this.storage.write(path("/dangling"), content("x"), WriteOptions.replace()).block(TIMEOUT));
		assertDenied(() -> this.storage.write(path("/dangling"), content("x"), WriteOptions.append()).block(TIMEOUT));
		assertDenied(
				() -> this.storage.write(path("/dangling/child"), content("x"), WriteOptions.replace()).block(TIMEOUT));
		assertDenied(() -> this.storage.createDirectory(path("/dangling/child")).block(TIMEOUT));
		assertThat(target).doesNotExist();
		assertThat(this.storage.list(StoragePath.root()).collectList().block(TIMEOUT)).singleElement()
			.extracting(FileEntry::type)
			.isEqualTo(EntryType.OTHER);
	}

	@Test
	void deletingALinkRemovesTheLinkNotItsTarget() throws Exception {
		Files.createSymbolicLink(this.root.resolve("escape"), this.outside.resolve("secret.txt"));
		this.storage.delete(path("/escape"), false).block(TIMEOUT);
		assertThat(this.root.resolve("escape")).doesNotExist();
		assertThat(this.outside.resolve("secret.txt")).hasContent("canary");
		Files.createSymbolicLink(this.root.resolve("escapedir"), this.outside);
		this.storage.delete(path("/escapedir"), true).block(TIMEOUT);
		assertThat(this.outside.resolve("secret.txt")).hasContent("canary");
	}

	@Test
	void recursiveDeleteDoesNotFollowLinksInside() throws Exception {
		Files.createDirectories(this.root.resolve("tree"));
		Files.createSymbolicLink(this.root.resolve("tree/out"), this.outside);
		this.storage.delete(path("/tree"), true).block(TIMEOUT);
		assertThat(this.root.resolve("tree")).doesNotExist();
		assertThat(this.outside.resolve("secret.txt")).hasContent("canary");
	}

	@Test
	void theLocalFileIsTheRealFileInsideTheRoot() throws Exception {
		Files.writeString(this.root.resolve("f"), "x");
		Path file = this.storage.localFile(path("/f")).block(TIMEOUT);
		assertThat(file).isEqualTo(this.root.toRealPath().resolve("f"));
	}

	@Test
	void temporaryFilesAreHiddenAndSweptWhenAbandoned() throws Exception {
		Path old = Files.writeString(this.root.resolve(LocalStorage.TEMP_PREFIX + "old"), "abandoned");
		Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
		Path recent = Files.writeString(this.root.resolve(LocalStorage.TEMP_PREFIX + "recent"), "in progress");
		Files.writeString(this.root.resolve("visible"), "v");
		assertThat(this.storage.list(StoragePath.root()).map(FileEntry::name).collectList().block(TIMEOUT))
			.containsExactly("visible");
		this.storage.sweepTemporaryFiles(Duration.ofHours(1)).block(TIMEOUT);
		assertThat(old).doesNotExist();
		assertThat(recent).exists();
	}

	@Test
	void namesThatAreNotValidOnDiskAreLeftOut() throws Exception {
		Files.writeString(this.root.resolve("cafe\u0301"), "nfd");
		Files.writeString(this.root.resolve("line\nbreak"), "control");
		Files.writeString(this.root.resolve("ok"), "fine");
		assertThat(this.storage.list(StoragePath.root()).map(FileEntry::name).collectList().block(TIMEOUT))
			.containsExactly("ok");
	}

	@Test
	void aFullDiskRefusesTheWriteAndLeavesNothing() throws Exception {
		Path mountPoint = Files.createDirectory(this.temp.resolve("tiny"));
		try (Tmpfs tmpfs = Tmpfs.mount(mountPoint, "1m")) {
			try (LocalStorage tiny = new LocalStorage("tiny", tmpfs.path(), true, 2)) {
				tiny.write(path("/small"), content("fits"), WriteOptions.replace()).block(TIMEOUT);
				assertThatThrownBy(
						() -> tiny.write(path("/big"), random(9, 4L * 1024 * 1024, 64 * 1024), WriteOptions.replace())
							.block(TIMEOUT))
					.isInstanceOf(QuotaExceededException.class);
				assertThat(tiny.list(StoragePath.root()).map(FileEntry::name).collectList().block(TIMEOUT))
					.containsExactly("small");
				try (var files = Files.list(tmpfs.path())) {
					assertThat(files.map(p -> p.getFileName().toString())).containsExactly("small");
				}
				assertThat(text(tiny.read(path("/small"), ByteRange.all()))).isEqualTo("fits");
			}
		}
	}

	@Test
	void aRootRemovedWhileRunningIsUnavailableNotEmptyAndNothingRecreatesIt() throws Exception {
		Files.writeString(this.root.resolve("kept"), "kept");
		Path away = this.temp.resolve("away");
		Files.move(this.root, away);
		assertThatThrownBy(() -> this.storage.stat(StoragePath.root()).block(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		assertThatThrownBy(() -> this.storage.list(path("/deep/folder")).collectList().block(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		assertThatThrownBy(() -> this.storage.write(path("/new"), content("x"), WriteOptions.replace()).block(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		assertThatThrownBy(() -> this.storage.createDirectory(path("/folder")).block(TIMEOUT))
			.isInstanceOf(BackendUnavailableException.class);
		assertThat(this.root).doesNotExist();
		Files.move(away, this.root);
		assertThat(read("/kept")).isEqualTo("kept");
	}

	@Test
	void theProviderCreatesAMissingRootAndRefusesAFile() throws Exception {
		LocalStorageProvider provider = new LocalStorageProvider();
		Path missing = this.temp.resolve("made/by/wharf");
		try (Storage created = provider.create(definition("data", Map.of("root", missing.toString())))) {
			assertThat(missing).isDirectory();
			assertThat(created.stat(StoragePath.root()).block(TIMEOUT).isDirectory()).isTrue();
		}
		Path file = Files.writeString(this.temp.resolve("a-file"), "x");
		assertThatThrownBy(() -> provider.create(definition("data", Map.of("root", file.toString()))))
			.isInstanceOfSatisfying(InvalidConfigurationException.class,
					ex -> assertThat(ex.property()).isEqualTo("wharf.storage.mounts.data.root"));
		assertThatThrownBy(() -> provider.create(definition("data", Map.of()))).isInstanceOfSatisfying(
				InvalidConfigurationException.class,
				ex -> assertThat(ex.property()).isEqualTo("wharf.storage.mounts.data.root"));
		assertThatThrownBy(() -> provider.create(definition("data", Map.of("root", missing.toString(), "rot", "typo"))))
			.hasStackTraceContaining("wharf.storage.mounts.data.rot");
	}

	private static MountDefinition definition(String name, Map<String, String> properties) {
		Map<String, String> all = new java.util.HashMap<>();
		all.put("wharf.storage.mounts." + name + ".type", "local");
		properties.forEach((key, value) -> all.put("wharf.storage.mounts." + name + "." + key, value));
		return new MountDefinition(name, "local", new Binder(new MapConfigurationPropertySource(all)));
	}

	private String read(String path) {
		return text(this.storage.read(path(path), ByteRange.all()));
	}

	private static StoragePath path(String path) {
		return StoragePath.parse(path);
	}

	private static void assertDenied(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
		assertThatThrownBy(call).isInstanceOf(AccessDeniedException.class)
			.satisfies(ex -> assertThat(ex.getMessage()).doesNotContain("canary").doesNotContain("/tmp"));
	}

}
