package dev.wharf.core.storage.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.WriteOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the {@code local} backend with paths as a client sends them (raw URI paths and
 * decoded text), through every operation (see {@link #staysInRoot} for the input format),
 * in a root that holds links out of it ({@code link-out}, {@code link-secret}), a
 * dangling link and a link inside it. Jazzer's file-path-traversal detector is confined
 * to the root: any file-system call the backend makes outside it is a finding, and so is
 * a canary's token in anything read or any change beside the root. Typed
 * {@link StorageException}s are the expected refusals; any other exception is a finding.
 */
class LocalStorageFuzzTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String TOKEN = "canary-" + UUID.randomUUID();

	private static Path base;

	private static Path root;

	private static Path outside;

	private static LocalStorage storage;

	@BeforeAll
	static void createRoot() throws IOException {
		base = Files.createTempDirectory("wharf-fuzz-").toRealPath();
		root = Files.createDirectory(base.resolve("root"));
		outside = Files.createDirectory(base.resolve("outside"));
		Files.writeString(outside.resolve("secret.txt"), TOKEN);
		storage = new LocalStorage("fuzz", root, false, 2);
	}

	@AfterAll
	static void deleteRoot() throws IOException {
		storage.close();
		try (Stream<Path> all = Files.walk(base)) {
			for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

	/**
	 * One operation per input, in a format of our own so that the committed inputs are
	 * easy to write: byte 0 picks the operation, bit 0 of byte 1 says whether the paths
	 * are raw URI paths (decoded as a request line is, ISO-8859-1, then
	 * {@link StoragePath#parseUriPath}) or text (UTF-8, {@link StoragePath#parse}), bit 1
	 * asks for a recursive delete; the rest is the source path, then a newline and the
	 * target path for move and copy.
	 */
	@FuzzTest(maxDuration = "5m")
	void staysInRoot(byte[] input) throws IOException {
		if (input.length < 2) {
			return;
		}
		restoreFixtures();
		int operation = (input[0] & 0xff) % 9;
		boolean raw = (input[1] & 1) != 0;
		boolean recursive = (input[1] & 2) != 0;
		int newline = 2;
		while (newline < input.length && input[newline] != '\n') {
			newline++;
		}
		String first = text(input, 2, newline, raw);
		String second = (newline < input.length) ? text(input, newline + 1, input.length, raw) : "";
		try (SilentCloseable confined = BugDetectors
			.setFilePathTraversalAllowPath(path -> path.toAbsolutePath().normalize().startsWith(root))) {
			StoragePath source = raw ? StoragePath.parseUriPath(first) : StoragePath.parse(first);
			StoragePath target = raw ? StoragePath.parseUriPath(second) : StoragePath.parse(second);
			switch (operation) {
				case 0 -> storage.stat(source).block(TIMEOUT);
				case 1 ->
					assertThat(StorageTestSupport.text(storage.read(source, ByteRange.all()))).doesNotContain(TOKEN);
				case 2 -> storage.list(source).collectList().block(TIMEOUT);
				case 3 ->
					storage.write(source, StorageTestSupport.content("fuzz"), WriteOptions.replace()).block(TIMEOUT);
				case 4 ->
					storage.write(source, StorageTestSupport.content("more"), WriteOptions.append()).block(TIMEOUT);
				case 5 -> storage.createDirectories(source).block(TIMEOUT);
				case 6 -> storage.delete(source, recursive).block(TIMEOUT);
				case 7 -> storage.move(source, target, true).block(TIMEOUT);
				default -> storage.copy(source, target, true).block(TIMEOUT);
			}
		}
		catch (StorageException expected) {
			// A typed refusal (invalid path, not found, access denied, conflict...) is
			// the right answer.
		}
		// Nothing beside the root changed: the canary is still the only thing there,
		// unchanged.
		try (Stream<Path> names = Files.list(outside)) {
			assertThat(names.map(path -> path.getFileName().toString()).toList()).containsExactly("secret.txt");
		}
		assertThat(Files.readString(outside.resolve("secret.txt"), StandardCharsets.UTF_8)).isEqualTo(TOKEN);
	}

	private static String text(byte[] input, int from, int to, boolean raw) {
		return new String(input, from, to - from, raw ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
	}

	/**
	 * Puts back the links an earlier input may have moved or deleted (the ones inside the
	 * root can be).
	 */
	private static void restoreFixtures() throws IOException {
		link("link-out", "../outside");
		link("link-secret", "../outside/secret.txt");
		link("dangling", "../outside/nothing");
		if (!Files.exists(root.resolve("dir"), LinkOption.NOFOLLOW_LINKS)) {
			Files.createDirectory(root.resolve("dir"));
		}
		link("link-in", "dir");
		if (!Files.exists(root.resolve("file.txt"), LinkOption.NOFOLLOW_LINKS)) {
			Files.writeString(root.resolve("file.txt"), "inside");
		}
	}

	private static void link(String name, String target) throws IOException {
		Path link = root.resolve(name);
		if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
			Files.createSymbolicLink(link, Path.of(target));
		}
	}

}
