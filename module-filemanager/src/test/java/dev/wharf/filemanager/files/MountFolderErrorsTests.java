package dev.wharf.filemanager.files;

import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MountFolderErrors}.
 */
class MountFolderErrorsTests {

	@Test
	void namesTheCallsPathsTheirParentsAndWhatLiesBelowThem() {
		StoragePath path = StoragePath.parse("/a b/c");
		assertThat(MountFolderErrors.name("Not found: /a b/c", "/data", path)).isEqualTo("Not found: /data/a b/c");
		assertThat(MountFolderErrors.name("Not found: /a b", "/data", path)).isEqualTo("Not found: /data/a b");
		assertThat(MountFolderErrors.name("Folder is not empty: /a b/c/d e", "/data", path))
			.isEqualTo("Folder is not empty: /data/a b/c/d e");
		assertThat(MountFolderErrors.name("/a b/c changed while it was sent", "/data", path))
			.isEqualTo("/data/a b/c changed while it was sent");
		assertThat(MountFolderErrors.name("Already exists: /", "/data", path)).isEqualTo("Already exists: /data");
		assertThat(MountFolderErrors.name("Cannot replace the file /x with a folder", "/data", path,
				StoragePath.parse("/x")))
			.isEqualTo("Cannot replace the file /data/x with a folder");
	}

	@Test
	void namesPathsFromAShareRootAndNoFolderAboveIt() {
		StoragePath root = StoragePath.parse("/projects/shared");
		StoragePath path = StoragePath.parse("/projects/shared/a/b");
		assertThat(MountFolderErrors.name("Not found: /projects/shared/a/b", root, "", path))
			.isEqualTo("Not found: /a/b");
		assertThat(MountFolderErrors.name("Not found: /projects/shared/a", root, "", path)).isEqualTo("Not found: /a");
		assertThat(MountFolderErrors.name("Not found: /projects/shared", root, "", path)).isEqualTo("Not found: /");
		assertThat(MountFolderErrors.name("Not found: /projects", root, "", path)).isEqualTo("Not found: /");
		assertThat(MountFolderErrors.name("Already exists: /", root, "", path)).isEqualTo("Already exists: /");
	}

	@Test
	void leavesAloneWhatIsNoPathOfTheCall() {
		StoragePath path = StoragePath.parse("/a");
		// A sibling whose name starts like the call's path, a path the call was not
		// given, a slash inside words.
		assertThat(MountFolderErrors.name("Not found: /ab", "/data", path)).isEqualTo("Not found: /ab");
		assertThat(MountFolderErrors.name("Link leads out of the mount: /etc/passwd", "/data", path))
			.isEqualTo("Link leads out of the mount: /etc/passwd");
		assertThat(MountFolderErrors.name("I/O error on /a", "/data", path)).isEqualTo("I/O error on /data/a");
		assertThat(MountFolderErrors.name("Mount 'data' is full (32 KiB)", "/data", path))
			.isEqualTo("Mount 'data' is full (32 KiB)");
	}

	@Test
	void keepsTheKindOfError() {
		MountFolderErrors storage = new MountFolderErrors(new MemoryStorage("scratch", 1 << 20),
				StoragePath.parse("/scratch"));
		StoragePath folder = StoragePath.parse("/f");
		storage.createDirectory(folder).block();
		assertThatExceptionOfType(AlreadyExistsException.class)
			.isThrownBy(() -> storage.createDirectory(folder).block())
			.withMessage("Already exists: /scratch/f");
		assertThatExceptionOfType(NotFoundException.class)
			.isThrownBy(() -> storage.write(StoragePath.parse("/g/h"), Flux.empty(), WriteOptions.replace()).block())
			.withMessage("Not found: /scratch/g");
	}

}
