package dev.wharf.core.storage.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.StoragePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link UnflushedReplace} and the {@link RenameExchange} under it, on the real
 * file system of the build's temporary folder.
 */
class UnflushedReplaceTests {

	@TempDir
	Path folder;

	@Test
	void exchangeIsAvailableOnLinux() {
		// Wharf's servers and CI run on Linux: without the exchange, replacing uploads
		// fall back to the slow
		// rename, and this should fail rather than go unnoticed.
		assertThat(System.getProperty("os.name")).startsWith("Linux");
		assertThat(RenameExchange.available()).isTrue();
	}

	@Test
	void swapExchangesTwoFiles() throws IOException {
		Path first = write("first", "one");
		Path second = write("ünïcode second", "two");
		assertThat(RenameExchange.swap(first, second)).isTrue();
		assertThat(Files.readString(first)).isEqualTo("two");
		assertThat(Files.readString(second)).isEqualTo("one");
	}

	@Test
	void swapWithAMissingEntryChangesNothing() throws IOException {
		Path first = write("first", "one");
		assertThat(RenameExchange.swap(first, this.folder.resolve("missing"))).isFalse();
		assertThat(Files.readString(first)).isEqualTo("one");
		assertThat(this.folder.resolve("missing")).doesNotExist();
	}

	@Test
	void replacesAnExistingFileAndLeavesNothingElse() throws IOException {
		Path target = write("report.txt", "old");
		Path temp = write(LocalStorage.TEMP_PREFIX + "1", "new");
		UnflushedReplace.replace(temp, target, StoragePath.parse("report.txt"));
		assertThat(Files.readString(target)).isEqualTo("new");
		assertThat(names()).containsExactly("report.txt");
	}

	@Test
	void aReaderOfTheOldFileKeepsReadingIt() throws IOException {
		Path target = write("report.txt", "old");
		Path temp = write(LocalStorage.TEMP_PREFIX + "1", "new");
		try (FileChannel reader = FileChannel.open(target, StandardOpenOption.READ)) {
			UnflushedReplace.replace(temp, target, StoragePath.parse("report.txt"));
			ByteBuffer buffer = ByteBuffer.allocate(16);
			reader.read(buffer);
			assertThat(new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8)).isEqualTo("old");
		}
		assertThat(Files.readString(target)).isEqualTo("new");
	}

	@Test
	void movesTheFileWhenTheTargetIsMissing() throws IOException {
		Path temp = write(LocalStorage.TEMP_PREFIX + "1", "new");
		Path target = this.folder.resolve("report.txt");
		UnflushedReplace.replace(temp, target, StoragePath.parse("report.txt"));
		assertThat(Files.readString(target)).isEqualTo("new");
		assertThat(names()).containsExactly("report.txt");
	}

	@Test
	void refusesToReplaceAFolderAndPutsItBack() throws IOException {
		Path target = Files.createDirectory(this.folder.resolve("docs"));
		Files.writeString(target.resolve("inside.txt"), "kept");
		Path temp = write(LocalStorage.TEMP_PREFIX + "1", "new");
		assertThatThrownBy(() -> UnflushedReplace.replace(temp, target, StoragePath.parse("docs")))
			.isInstanceOf(ConflictException.class)
			.hasMessageContaining("docs");
		assertThat(Files.readString(target.resolve("inside.txt"))).isEqualTo("kept");
		assertThat(Files.readString(temp)).isEqualTo("new");
	}

	private Path write(String name, String content) throws IOException {
		return Files.writeString(this.folder.resolve(name), content);
	}

	private List<String> names() throws IOException {
		try (Stream<Path> entries = Files.list(this.folder)) {
			return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
		}
	}

}
