package dev.wharf.filemanager.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import dev.wharf.filemanager.testsupport.Zips;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Folders whose links lead back into themselves, as real symbolic links in the local
 * mount: zip, copy (within a mount and to another) and search walk each tree once, leave
 * every link loop out and name it (in {@code error.log}, in the copy's error, in the
 * search's {@code errors}), and finish; delete removes the links without following them.
 * Without loop detection each walk went round until the path was 128 names deep, with two
 * loops in a tree for ever. A link out of the mount's root is still refused by every
 * walk.
 */
class LinkLoopTests extends FileManagerTestBase {

	/**
	 * One tree: its real files and its links (relative targets), what a walk sees of it,
	 * and its loops.
	 */
	enum Layout {

		/** {@code self -> .} */
		SELF(List.of("top.txt", "sub/inner.txt"), Map.of("self", "."), List.of("sub/inner.txt", "top.txt"),
				Map.of("self", "")),

		/** {@code sub/up -> ..} */
		PARENT(List.of("top.txt", "sub/inner.txt"), Map.of("sub/up", ".."), List.of("sub/inner.txt", "top.txt"),
				Map.of("sub/up", "")),

		/** {@code a/b -> ../a}: a folder holding a link to itself through its parent. */
		BACK_THROUGH_PARENT(List.of("top.txt", "a/in-a.txt"), Map.of("a/b", "../a"), List.of("a/in-a.txt", "top.txt"),
				Map.of("a/b", "a")),

		/**
		 * {@code x/toy -> ../y} and {@code y/tox -> ../x}: each folder is walked once
		 * where it is and once through the other's link, whose own link then leads back.
		 */
		MUTUAL(List.of("x/x.txt", "y/y.txt"), Map.of("x/toy", "../y", "y/tox", "../x"),
				List.of("x/toy/y.txt", "x/x.txt", "y/tox/x.txt", "y/y.txt"),
				Map.of("x/toy/tox", "x", "y/tox/toy", "y"));

		final List<String> files;

		final Map<String, String> links;

		final List<String> walked;

		final Map<String, String> loops;

		Layout(List<String> files, Map<String, String> links, List<String> walked, Map<String, String> loops) {
			this.files = files;
			this.links = links;
			this.walked = walked;
			this.loops = loops;
		}

		/**
		 * The content of a walked file: its real path's, as written by {@link #create}.
		 */
		String content(String walkedPath) {
			String name = walkedPath.substring(walkedPath.lastIndexOf('/') + 1);
			return this.files.stream()
				.filter(file -> file.endsWith("/" + name) || file.equals(name))
				.findFirst()
				.orElseThrow();
		}

	}

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	/** Creates a layout's tree in the local mount and gives its folder's name. */
	private static String create(Layout layout) throws IOException {
		String name = unique(layout.name().toLowerCase(java.util.Locale.ROOT));
		Path tree = Files.createDirectories(ROOT.resolve("data").resolve(name));
		for (String file : layout.files) {
			Files.createDirectories(tree.resolve(file).getParent());
			Files.writeString(tree.resolve(file), file, StandardCharsets.UTF_8);
		}
		for (Map.Entry<String, String> link : layout.links.entrySet()) {
			Files.createSymbolicLink(tree.resolve(link.getKey()), Path.of(link.getValue()));
		}
		return name;
	}

	private static String under(String tree, String relative) {
		return relative.isEmpty() ? tree : tree + "/" + relative;
	}

	@ParameterizedTest
	@EnumSource(Layout.class)
	void zipHoldsEachWalkedFileOnceAndNamesEveryLoopInErrorLog(Layout layout) throws IOException {
		String tree = create(layout);
		Answer answer = this.api.get("/api/files/zip?path=/data/" + tree).browser(this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		Map<String, byte[]> entries = Zips.entries(answer.body());
		List<String> files = entries.keySet()
			.stream()
			.filter(name -> !name.endsWith("/") && !name.equals("error.log"))
			.toList();
		assertThat(files).containsExactlyElementsOf(layout.walked.stream().map(file -> tree + "/" + file).toList());
		for (String file : layout.walked) {
			assertThat(new String(entries.get(tree + "/" + file), StandardCharsets.UTF_8))
				.isEqualTo(layout.content(file));
		}
		for (String loop : layout.loops.keySet()) {
			assertThat(entries).doesNotContainKeys(tree + "/" + loop + "/", tree + "/" + loop);
		}
		assertThat(entries).containsKey("error.log");
		assertThat(new String(entries.get("error.log"), StandardCharsets.UTF_8).lines())
			.containsExactlyInAnyOrderElementsOf(layout.loops.entrySet()
				.stream()
				.map(loop -> tree + "/" + loop.getKey() + ": skipped, a link loop: it leads back to "
						+ under(tree, loop.getValue()) + "/")
				.toList());
	}

	@ParameterizedTest
	@EnumSource(Layout.class)
	void copyWithinTheMountCopiesAllButTheLoopsAndNamesThem(Layout layout) throws IOException {
		String tree = create(layout);
		String copy = tree + "-copy";
		Answer answer = this.api.post("/api/files/cp?from=/data/" + tree + "&to=/data/" + copy)
			.browser(this.cookie)
			.send();
		assertThat(answer.status()).as(answer.text()).isEqualTo(409);
		assertLoopsNamed(answer.message(), tree, layout);
		Path copied = ROOT.resolve("data").resolve(copy);
		assertThat(filesBelow(copied)).containsExactlyInAnyOrderElementsOf(layout.walked);
		try (Stream<Path> all = Files.walk(copied)) {
			assertThat(all.filter(Files::isSymbolicLink)).as("links are copied as what they lead to").isEmpty();
		}
	}

	@ParameterizedTest
	@EnumSource(Layout.class)
	void copyToAnotherMountCopiesAllButTheLoopsAndNamesThem(Layout layout) throws IOException {
		String tree = create(layout);
		Answer answer = this.api.post("/api/files/cp?from=/data/" + tree + "&to=/scratch/" + tree)
			.browser(this.cookie)
			.send();
		assertThat(answer.status()).as(answer.text()).isEqualTo(409);
		assertLoopsNamed(answer.message(), tree, layout);
		assertThat(filesBelow("/scratch/" + tree)).containsExactlyInAnyOrderElementsOf(layout.walked);
	}

	@ParameterizedTest
	@EnumSource(Layout.class)
	void searchFindsEachWalkedFileAndNamesEveryLoop(Layout layout) throws IOException {
		String tree = create(layout);
		Answer answer = this.api.get("/api/files/search?path=/data/" + tree + "&q=.txt").browser(this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		JsonNode json = answer.json();
		assertThat(json.path("results").valueStream().map(result -> result.path("path").stringValue()))
			.containsExactlyInAnyOrderElementsOf(
					layout.walked.stream().map(file -> "/data/" + tree + "/" + file).toList());
		assertThat(json.path("errors").valueStream().map(JsonNode::stringValue))
			.containsExactlyInAnyOrderElementsOf(layout.loops.entrySet()
				.stream()
				.map(loop -> "/data/" + tree + "/" + loop.getKey()
						+ "/: not searched, a link loop: it leads back to /data/" + under(tree, loop.getValue()) + "/")
				.toList());
	}

	@Test
	void searchWithoutLoopsHasNoErrorsMember() throws IOException {
		String tree = unique("plain");
		Files.createDirectories(ROOT.resolve("data").resolve(tree).resolve("sub"));
		Files.writeString(ROOT.resolve("data").resolve(tree).resolve("sub/a.txt"), "a");
		JsonNode json = this.api.get("/api/files/search?path=/data/" + tree + "&q=.txt")
			.browser(this.cookie)
			.send()
			.json();
		assertThat(json.path("results").size()).isEqualTo(1);
		assertThat(json.has("errors")).isFalse();
	}

	@Test
	void deleteRemovesTheLinksAndNothingTheyLeadTo() throws IOException {
		writeCanary();
		String tree = create(Layout.MUTUAL);
		Path folder = ROOT.resolve("data").resolve(tree);
		Files.createSymbolicLink(folder.resolve("self"), Path.of("."));
		Files.createSymbolicLink(folder.resolve("x/up"), Path.of(".."));
		Files.createSymbolicLink(folder.resolve("out"), ROOT.resolve("outside"));
		assertThat(this.api.post("/api/files/rm?path=/data/" + tree).browser(this.cookie).send().status())
			.isEqualTo(200);
		assertThat(Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
		assertThat(Files.readString(ROOT.resolve("outside").resolve("secret.txt"))).isEqualTo(CANARY);
	}

	@Test
	void aLinkToAFolderOutsideTheMountIsStillRefusedByEveryWalk() throws IOException {
		writeCanary();
		String tree = unique("escape");
		Path folder = Files.createDirectories(ROOT.resolve("data").resolve(tree));
		Files.writeString(folder.resolve("inside.txt"), "inside");
		Files.createSymbolicLink(folder.resolve("out"), ROOT.resolve("outside"));
		Answer zip = this.api.get("/api/files/zip?path=/data/" + tree).browser(this.cookie).send();
		Map<String, byte[]> entries = Zips.entries(zip.body());
		assertThat(entries.keySet()).containsExactly(tree + "/", tree + "/inside.txt", "error.log");
		assertThat(new String(entries.get("error.log"), StandardCharsets.UTF_8))
			.isEqualTo(tree + "/out: skipped, neither a file nor a folder\n");
		assertThat(new String(zip.body(), StandardCharsets.ISO_8859_1)).doesNotContain(CANARY);
		assertThat(this.api.post("/api/files/cp?from=/data/" + tree + "&to=/scratch/" + tree)
			.browser(this.cookie)
			.send()
			.status()).isEqualTo(200);
		assertThat(filesBelow("/scratch/" + tree)).containsExactly("inside.txt");
		Answer search = this.api.get("/api/files/search?path=/data/" + tree + "&q=secret").browser(this.cookie).send();
		assertThat(search.json().path("results").size()).isZero();
		assertThat(search.text()).doesNotContain(CANARY);
	}

	private static void assertLoopsNamed(String message, String tree, Layout layout) {
		for (Map.Entry<String, String> loop : layout.loops.entrySet()) {
			assertThat(message).contains(
					"/data/" + tree + "/" + loop.getKey() + " leads back to /data/" + under(tree, loop.getValue()));
		}
		assertThat(message).startsWith("Copied all but ").contains("a link loop");
	}

	/** The files below a folder of the local mount, as relative paths. */
	private static List<String> filesBelow(Path folder) throws IOException {
		try (Stream<Path> all = Files.walk(folder)) {
			return all.filter(Files::isRegularFile).map(file -> folder.relativize(file).toString()).toList();
		}
	}

	/** The files below a folder, listed through the API, as relative paths. */
	private List<String> filesBelow(String folder) {
		List<String> files = new ArrayList<>();
		List<String> pending = new ArrayList<>(List.of(""));
		for (int i = 0; i < pending.size() && i < 1000; i++) {
			String relative = pending.get(i);
			Answer answer = this.api.get("/api/files/ls?path=" + folder + "/" + relative).browser(this.cookie).send();
			assertThat(answer.status()).as(answer.text()).isEqualTo(200);
			for (JsonNode entry : answer.json().path("results")) {
				String path = relative + entry.path("name").stringValue();
				if ("directory".equals(entry.path("type").stringValue())) {
					pending.add(path + "/");
				}
				else {
					files.add(path);
				}
			}
		}
		return files;
	}

}
