package dev.wharf.core.storage;

import java.time.Instant;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FolderChain}: only a folder the walk is inside is a loop, compared by
 * key.
 */
class FolderChainTests {

	private static FileEntry folder(String path, @Nullable String key) {
		return new FileEntry(StoragePath.parse(path), EntryType.DIRECTORY, 0, Instant.EPOCH,
				(key != null) ? FileKey.of(key) : null);
	}

	@Test
	void aFolderWithTheKeyOfAFolderTheWalkIsInLoopsToIt() {
		FileEntry root = folder("/t", "T");
		FileEntry sub = folder("/t/sub", "S");
		FolderChain chain = FolderChain.start(root).enter(sub);
		assertThat(chain.loopsTo(folder("/t/sub/up", "T"))).isSameAs(root);
		assertThat(chain.loopsTo(folder("/t/sub/self", "S"))).isSameAs(sub);
	}

	@Test
	void aFolderReachedAlongAnotherPathIsNoLoop() {
		FolderChain chain = FolderChain.start(folder("/t", "T")).enter(folder("/t/x", "X"));
		assertThat(chain.loopsTo(folder("/t/x/toy", "Y"))).isNull();
		// The walk's earlier branches are not part of the chain.
		FolderChain sibling = FolderChain.start(folder("/t", "T")).enter(folder("/t/y", "Y"));
		assertThat(sibling.loopsTo(folder("/t/y/tox", "X"))).isNull();
	}

	@Test
	void entriesWithoutKeysAndFilesAreNeverLoops() {
		FolderChain chain = FolderChain.start(folder("/t", null));
		assertThat(chain.loopsTo(folder("/t/a", null))).isNull();
		FolderChain keyed = FolderChain.start(folder("/t", "T"));
		assertThat(keyed
			.loopsTo(new FileEntry(StoragePath.parse("/t/f"), EntryType.FILE, 1, Instant.EPOCH, FileKey.of("T"))))
			.isNull();
	}

}
