package dev.wharf.staticfiles.resolve;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;

import dev.wharf.core.storage.StoragePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link SharedChannel} and the sharing life cycle of {@link StoredFile}: one
 * channel per cached file, closed only after the cache and every response have let go,
 * never more than the cap.
 */
class SharedChannelTests {

	@TempDir
	Path folder;

	StoredFile file(Path local, long size) {
		return new StoredFile(StoragePath.parse("/" + local.getFileName()), size, Instant.now(), local, null);
	}

	@Test
	void aSharedFileOpensOnceAndClosesAfterTheLastUser() throws IOException {
		Path local = Files.writeString(this.folder.resolve("a.txt"), "hello");
		StoredFile file = file(local, 5);
		assertThat(file.acquireChannel()).as("not shared until cached").isNull();
		file.share();
		SharedChannel first = file.acquireChannel();
		SharedChannel second = file.acquireChannel();
		assertThat(first).isNotNull().isSameAs(second);
		ByteBuffer bytes = ByteBuffer.allocate(5);
		first.channel().read(bytes, 0);
		assertThat(new String(bytes.array())).isEqualTo("hello");
		file.close();
		assertThat(first.channel().isOpen()).as("responses still hold it").isTrue();
		assertThat(file.acquireChannel()).as("no new user after close").isNull();
		first.release();
		assertThat(first.channel().isOpen()).isTrue();
		second.release();
		assertThat(first.channel().isOpen()).isFalse();
		assertThat(first.retain()).isFalse();
	}

	@Test
	void aChangedOrMissingFileIsReported() throws IOException {
		Path local = Files.writeString(this.folder.resolve("b.txt"), "hello");
		StoredFile changed = file(local, 4);
		changed.share();
		assertThatThrownBy(changed::acquireChannel).isInstanceOf(SharedChannel.FileChangedException.class);
		StoredFile missing = file(this.folder.resolve("missing"), 4);
		missing.share();
		assertThatThrownBy(missing::acquireChannel).isInstanceOf(NoSuchFileException.class);
		assertThat(SharedChannel.openCount()).isLessThanOrEqualTo(SharedChannel.MAX_OPEN);
	}

	@Test
	void filesWithCachedBytesNeverOpenAChannel() throws IOException {
		Path local = Files.writeString(this.folder.resolve("c.txt"), "hi");
		StoredFile file = new StoredFile(StoragePath.parse("/c.txt"), 2, Instant.now(), local, new byte[] { 'h', 'i' });
		file.share();
		assertThat(file.acquireChannel()).isNull();
	}

	@Test
	void theNumberOfOpenChannelsIsCapped() throws IOException {
		Path local = Files.writeString(this.folder.resolve("d.txt"), "x");
		int before = SharedChannel.openCount();
		java.util.List<StoredFile> files = new java.util.ArrayList<>();
		int opened = 0;
		for (int i = 0; i < SharedChannel.MAX_OPEN + 10; i++) {
			StoredFile file = file(local, 1);
			file.share();
			files.add(file);
			SharedChannel channel = file.acquireChannel();
			if (channel != null) {
				opened++;
				channel.release();
			}
		}
		assertThat(opened).isEqualTo(SharedChannel.MAX_OPEN - before);
		files.forEach(StoredFile::close);
		assertThat(SharedChannel.openCount()).isEqualTo(before);
	}

}
