package dev.wharf.ftp.filesystem;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.mounts.UserMount;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.ftp.session.FtpUser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MountFileSystemView}: how FTP paths map to mounts, and that bad paths
 * are refused, not repaired.
 */
class MountFileSystemViewTests {

	final MemoryStorage data = new MemoryStorage("data", 1024 * 1024);

	final MemoryStorage scratch = new MemoryStorage("scratch", 1024 * 1024);

	final User user = new User("alice", Set.of(Role.USER),
			Map.of("data", MountAccess.READ_WRITE, "scratch", MountAccess.READ_ONLY));

	@AfterEach
	void close() {
		this.data.close();
		this.scratch.close();
	}

	private MountFileSystemView single() {
		return new StorageFileSystemFactory(List.of(new Mount("data", "memory", this.data)))
			.createFileSystemView(new FtpUser(this.user, null));
	}

	private MountFileSystemView several() {
		return new StorageFileSystemFactory(
				List.of(new Mount("data", "memory", this.data), new Mount("scratch", "memory", this.scratch)))
			.createFileSystemView(new FtpUser(this.user, null));
	}

	@ParameterizedTest
	@CsvSource({ "a.txt, /a.txt", "/a.txt, /a.txt", "dir/, /dir", "dir/sub/f, /dir/sub/f", "~, /~", "*.txt, /*.txt",
			"'a b ', '/a b '", "/, /", "., /" })
	void pathsResolveAgainstTheWorkingFolder(String argument, String expected) {
		MountFileSystemView view = single();
		assertThat(view.resolve(argument)).hasToString(expected);
		view.changeWorkingDirectory(StoragePath.parse("/dir"));
		if (!argument.startsWith("/")) {
			assertThat(view.resolve(argument)).hasToString(("/dir" + expected).replaceAll("/$", ""));
		}
		assertThat(view.resolve(null)).hasToString("/dir");
	}

	@ParameterizedTest
	@ValueSource(strings = { "..", "../..", "../../etc/passwd", "a/../b", "./a", "./", "a/.", "a/./b", "..\\..", "a\\b",
			"C:\\x", "a//b", "//etc/passwd", "/..", "dir/..", "a\u0000b", ".wharf-tmp-x", "a/.wharf", "\u202Eevil",
			"．．／x" })
	void badPathsAreRefusedNotRepaired(String argument) {
		MountFileSystemView view = single();
		view.changeWorkingDirectory(StoragePath.parse("/dir/sub"));
		if (argument.equals("．．／x")) {
			// Full-width dots and slash are ordinary characters: a name, not a way up.
			assertThat(view.resolve(argument)).hasToString("/dir/sub/．．／x");
			return;
		}
		assertThatExceptionOfType(InvalidStoragePathException.class).isThrownBy(() -> view.resolve(argument));
		assertThat(view.workingDirectoryPath()).hasToString("/dir/sub");
	}

	@Test
	void aSingleMountIsTheRoot() {
		MountLocation location = single().locate("/dir/a.txt");
		assertThat(location).isInstanceOf(MountLocation.InMount.class);
		MountLocation.InMount in = (MountLocation.InMount) location;
		assertThat(in.mount().name()).isEqualTo("data");
		assertThat(in.path()).hasToString("/dir/a.txt");
	}

	@Test
	void severalMountsAreFoldersOfAVirtualRoot() {
		MountFileSystemView view = several();
		assertThat(view.locate("/")).isInstanceOf(MountLocation.Top.class);
		assertThat(((MountLocation.Top) view.locate("/")).mounts()).extracting(UserMount::name)
			.containsExactly("data", "scratch");
		MountLocation.InMount in = (MountLocation.InMount) view.locate("/scratch/x/y");
		assertThat(in.mount().name()).isEqualTo("scratch");
		assertThat(in.path()).hasToString("/x/y");
		assertThat(((MountLocation.InMount) view.locate("/data")).path().isRoot()).isTrue();
		assertThat(view.locate("/other/x")).isInstanceOf(MountLocation.Unknown.class);
		// The mount name is a name like any other: no way around the root through it.
		assertThatExceptionOfType(InvalidStoragePathException.class).isThrownBy(() -> view.locate("/data/../scratch"));
	}

	@Test
	void mountsTheUserMayNotReadAreNotThere() throws Exception {
		User bob = new User("bob", Set.of(Role.USER), Map.of("data", MountAccess.READ_ONLY));
		StorageFileSystemFactory factory = new StorageFileSystemFactory(
				List.of(new Mount("data", "memory", this.data), new Mount("scratch", "memory", this.scratch)));
		MountFileSystemView view = factory.createFileSystemView(new FtpUser(bob, null));
		assertThat(view.mounts()).extracting(UserMount::name).containsExactly("data");
		assertThat(view.locate("/scratch/x")).isInstanceOf(MountLocation.Unknown.class);
		assertThat(factory.canUse(new User("carol", Set.of(Role.USER), Map.of()))).isFalse();
	}

}
