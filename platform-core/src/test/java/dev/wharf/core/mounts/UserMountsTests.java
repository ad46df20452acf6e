package dev.wharf.core.mounts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ModuleMounts} and {@link UserMounts}: which mounts a user sees, where
 * a path of the tree leads with one mount and with several in both layouts, that rights
 * and credentials come with each mount's storage, and that no path reaches past a mount.
 */
class UserMountsTests {

	final MemoryStorage data = new MemoryStorage("data", 1024 * 1024);

	final MemoryStorage scratch = new MemoryStorage("scratch", 1024 * 1024);

	final User alice = new User("alice", Set.of(Role.USER),
			Map.of("data", MountAccess.READ_WRITE, "scratch", MountAccess.READ_ONLY));

	final User bob = new User("bob", Set.of(Role.USER), Map.of("scratch", MountAccess.READ_ONLY));

	@AfterEach
	void close() {
		this.data.close();
		this.scratch.close();
	}

	private List<Mount> mounts(int count) {
		List<Mount> mounts = new ArrayList<>(List.of(new Mount("data", "memory", this.data)));
		if (count > 1) {
			mounts.add(new Mount("scratch", "memory", this.scratch));
		}
		return mounts;
	}

	static Stream<Arguments> folderLayouts() {
		return Stream.of(Arguments.of(ModuleMounts.Layout.FOLDERS, 1), Arguments.of(ModuleMounts.Layout.FOLDERS, 2),
				Arguments.of(ModuleMounts.Layout.LONE_MOUNT_AT_ROOT, 2));
	}

	@ParameterizedTest
	@MethodSource("folderLayouts")
	void mountsAreFoldersOfTheTop(ModuleMounts.Layout layout, int count) {
		UserMounts view = new ModuleMounts(mounts(count), layout).forUser(this.alice, null);
		MountLocation top = view.locate(StoragePath.root());
		assertThat(top).isInstanceOf(MountLocation.Top.class);
		List<String> names = (count == 1) ? List.of("data") : List.of("data", "scratch");
		assertThat(((MountLocation.Top) top).mounts()).extracting(UserMount::name).containsExactlyElementsOf(names);
		MountLocation.InMount in = (MountLocation.InMount) view.locate(StoragePath.parse("/data/a/b"));
		assertThat(in.mount().name()).isEqualTo("data");
		assertThat(in.mount().folder()).hasToString("/data");
		assertThat(in.path()).hasToString("/a/b");
		assertThat(in.virtualPath()).hasToString("/data/a/b");
		assertThat(((MountLocation.InMount) view.locate(StoragePath.parse("/data"))).path().isRoot()).isTrue();
		MountLocation.InMount folder = ((MountLocation.Top) top).folderOf(in.mount());
		assertThat(folder.virtualPath()).hasToString("/data");
		assertThat(folder.path().isRoot()).isTrue();
		assertThat(view.locate(StoragePath.parse("/other/x"))).isInstanceOf(MountLocation.Unknown.class);
		assertThat(view.locate(StoragePath.parse("/a/b"))).isInstanceOf(MountLocation.Unknown.class);
	}

	@Test
	void aLoneMountIsTheRootWhereTheModuleAsks() {
		UserMounts view = new ModuleMounts(mounts(1), ModuleMounts.Layout.LONE_MOUNT_AT_ROOT).forUser(this.alice, null);
		MountLocation.InMount root = (MountLocation.InMount) view.locate(StoragePath.root());
		assertThat(root.path().isRoot()).isTrue();
		assertThat(root.mount().folder().isRoot()).isTrue();
		MountLocation.InMount in = (MountLocation.InMount) view.locate(StoragePath.parse("/data/a"));
		assertThat(in.mount().name()).isEqualTo("data");
		// The mount's name is an ordinary folder name inside it.
		assertThat(in.path()).hasToString("/data/a");
		assertThat(view.mounts()).extracting(UserMount::name).containsExactly("data");
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2 })
	void mountsTheUserMayNotReadDoNotExistForThem(int count) {
		for (ModuleMounts.Layout layout : ModuleMounts.Layout.values()) {
			ModuleMounts module = new ModuleMounts(mounts(count), layout);
			UserMounts view = module.forUser(this.bob, null);
			List<String> visible = (count == 1) ? List.of() : List.of("scratch");
			assertThat(view.mounts()).as(layout.name()).extracting(UserMount::name).containsExactlyElementsOf(visible);
			assertThat(module.visible(this.bob)).as(layout.name())
				.extracting(Mount::name)
				.containsExactlyElementsOf(visible);
			assertThat(module.canUse(this.bob)).as(layout.name()).isEqualTo(count > 1);
			assertThat(((MountLocation.Top) view.locate(StoragePath.root())).mounts()).as(layout.name())
				.extracting(UserMount::name)
				.containsExactlyElementsOf(visible);
			assertThat(view.locate(StoragePath.parse("/data/x"))).as(layout.name())
				.isInstanceOf(MountLocation.Unknown.class);
			assertThat(view.locate(StoragePath.parse("/x"))).as(layout.name())
				.isInstanceOf(MountLocation.Unknown.class);
		}
	}

	@Test
	void eachMountIsReachedWithTheUsersRights() {
		UserMounts view = new ModuleMounts(mounts(2), ModuleMounts.Layout.FOLDERS).forUser(this.alice, null);
		MountLocation.InMount scratch = (MountLocation.InMount) view.locate(StoragePath.parse("/scratch/new"));
		assertThat(scratch.mount().access()).isEqualTo(MountAccess.READ_ONLY);
		assertThatExceptionOfType(AccessDeniedException.class)
			.isThrownBy(() -> scratch.mount().storage().createDirectory(scratch.path()).block());
		MountLocation.InMount data = (MountLocation.InMount) view.locate(StoragePath.parse("/data/new"));
		assertThat(data.mount().storage().createDirectory(data.path()).block()).extracting(FileEntry::isDirectory)
			.isEqualTo(true);
		assertThat(this.scratch.stat(StoragePath.parse("/new")).onErrorResume(error -> Mono.empty()).block()).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/data/../scratch", "/data/..", "/../data", "/data/./x", "/data//x", "/data\\..\\scratch",
			"/data/a\u0000b" })
	void noPathReachesPastAMount(String path) {
		assertThatExceptionOfType(InvalidStoragePathException.class).isThrownBy(() -> StoragePath.parse(path));
	}

	@Test
	void credentialsGoOnlyToMountsThatLogInAsTheUser() {
		List<Credentials> seen = new ArrayList<>();
		Mount passthrough = new Mount("data", "memory", new ForwardingStorage(this.data) {

			@Override
			public boolean needsUserCredentials() {
				return true;
			}

			@Override
			public Mono<FileEntry> stat(StoragePath path) {
				return Credentials.current().doOnNext(seen::add).then(super.stat(path));
			}

		});
		Mount plain = new Mount("scratch", "memory", new ForwardingStorage(this.scratch) {

			@Override
			public Mono<FileEntry> stat(StoragePath path) {
				return Credentials.current().doOnNext(seen::add).then(super.stat(path));
			}

		});
		ModuleMounts module = new ModuleMounts(List.of(passthrough, plain), ModuleMounts.Layout.FOLDERS);
		assertThat(module.needsCredentials()).isTrue();
		Credentials login = new Credentials("alice", "alice-pw");
		UserMounts view = module.forUser(this.alice, login);
		for (String path : List.of("/data", "/scratch")) {
			((MountLocation.InMount) view.locate(StoragePath.parse(path))).mount()
				.storage()
				.stat(StoragePath.root())
				.block();
		}
		assertThat(seen).containsExactly(login);
		// Without the login kept, nothing is attached.
		((MountLocation.InMount) module.forUser(this.alice, null).locate(StoragePath.parse("/data"))).mount()
			.storage()
			.stat(StoragePath.root())
			.block();
		assertThat(seen).containsExactly(login);
		assertThat(new ModuleMounts(List.of(plain), ModuleMounts.Layout.FOLDERS).needsCredentials()).isFalse();
	}

}
