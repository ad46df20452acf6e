package dev.wharf.core.storage;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link StoragePath} and {@link PercentDecoding}.
 */
class StoragePathTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "''|/", "/|/", "a|/a", "/a|/a", "/a/|/a", "a/b/c|/a/b/c", "/x y/z|/x y/z", "/~/file|/~/file",
					"/C:/x|/C:/x", "/...|/...", "/..a|/..a", "/a..|/a..", "/.hidden|/.hidden", "/.wharfish|/.wharfish",
					"/-rf|/-rf", "/．．／x|/．．／x" })
	void acceptsAndNormalises(String input, String expected) {
		assertThat(StoragePath.parse(input)).hasToString(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "..", "/..", "../a", "a/..", "a/../b", ".", "./a", "a/./b", "//", "//a", "a//b", "/a//",
			"a\\b", "..\\a", "C:\\x", "a\u0000b", "a\u0001b", "a\nb", "a\rb", "a\tb", "a\u007fb", "a\u0085b",
			"a\u009fb", "a\u2028b", "a\u202eb", "a\u2066b", "a\ufeffb", "a\ufffdb", ".wharf", "/.wharf/x",
			"/x/.wharf-tmp-1" })
	void rejects(String input) {
		assertThatThrownBy(() -> StoragePath.parse(input)).isInstanceOf(InvalidStoragePathException.class);
	}

	@Test
	void rejectsUnpairedSurrogates() {
		assertThatThrownBy(() -> StoragePath.parse("a\ud800b")).isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> StoragePath.parse("a\udc00")).isInstanceOf(InvalidStoragePathException.class);
		assertThat(StoragePath.parse("\ud83d\udce6").name()).isEqualTo("\ud83d\udce6");
	}

	@Test
	void enforcesLengthLimits() {
		String longest = "a".repeat(StoragePath.MAX_SEGMENT_BYTES);
		assertThat(StoragePath.parse(longest).name()).isEqualTo(longest);
		assertThatThrownBy(() -> StoragePath.parse(longest + "a")).isInstanceOf(InvalidStoragePathException.class);
		// Three UTF-8 bytes per character: 86 characters are 258 bytes.
		assertThatThrownBy(() -> StoragePath.parse("\u65e5".repeat(86)))
			.isInstanceOf(InvalidStoragePathException.class);
		String deep = "a/".repeat(StoragePath.MAX_DEPTH);
		assertThat(StoragePath.parse(deep).depth()).isEqualTo(StoragePath.MAX_DEPTH);
		assertThatThrownBy(() -> StoragePath.parse(deep + "a")).isInstanceOf(InvalidStoragePathException.class);
		String huge = ("b".repeat(200) + "/").repeat(30);
		assertThatThrownBy(() -> StoragePath.parse(huge)).isInstanceOf(InvalidStoragePathException.class);
	}

	@Test
	void normalisesToNfcBeforeCheckingNames() {
		StoragePath decomposed = StoragePath.parse("/cafe\u0301");
		assertThat(decomposed).isEqualTo(StoragePath.parse("/caf\u00e9"));
		assertThat(decomposed.name()).isEqualTo("caf\u00e9");
	}

	@Test
	void reservedPathsAreOnlyForWharfItself() {
		StoragePath reserved = StoragePath.reserved("/.wharf/uploads/1");
		assertThat(reserved.isReserved()).isTrue();
		assertThat(StoragePath.parse("/a").isReserved()).isFalse();
		assertThat(StoragePath.isValidName(".wharf")).isFalse();
		assertThat(StoragePath.isValidName(".wharf-tmp-x")).isFalse();
		assertThat(StoragePath.isValidName(".wharfx")).isTrue();
		assertThatThrownBy(() -> StoragePath.reserved("/.wharf/../x")).isInstanceOf(InvalidStoragePathException.class);
	}

	@ParameterizedTest
	@ValueSource(strings = { ".WHARF", ".Wharf", ".Wharf-buildcache", ".WHARF-BUILDCACHE", ".wharf.", ".wharf ",
			".wharf. .", ".wharf-uploads. ", ".WHARF-TMP-1 ", ".wHaRf-index...", ".wharf-" })
	void reservedNamesAreRefusedInAnyCaseAndWithTrailingDotsOrSpaces(String name) {
		assertThat(StoragePath.isReservedName(name)).isTrue();
		assertThat(StoragePath.isValidName(name)).isFalse();
		assertThatThrownBy(() -> StoragePath.parse("/" + name)).isInstanceOf(InvalidStoragePathException.class)
			.hasMessageContaining("reserved");
		assertThatThrownBy(() -> StoragePath.parse("/data/" + name + "/entry"))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> StoragePath.parseUriPath("/" + name.replace(" ", "%20")))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> StoragePath.parseUtf8(("/" + name).getBytes(StandardCharsets.UTF_8)))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThat(StoragePath.reserved("/" + name).isReserved()).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { ".wharfish", ".WHARFISH", ".wharf.txt", ".Wharf_x", "wharf", ".whar", ". wharf", "x.wharf",
			".wharf.x.", "..wharf" })
	void namesThatOnlyLookLikeReservedOnesAreAccepted(String name) {
		assertThat(StoragePath.isReservedName(name)).isFalse();
		assertThat(StoragePath.parse("/" + name).name()).isEqualTo(name);
	}

	@Test
	void equalPathsHashAlikeHoweverTheyWereMadeAndWhicheverWasHashedFirst() {
		StoragePath parsed = StoragePath.parse("/cache/ab/abcdef");
		StoragePath resolved = StoragePath.root().resolve("cache").resolve("ab").resolve("abcdef");
		StoragePath cut = StoragePath.parse("/cache/ab/abcdef/x").parent();
		StoragePath relative = StoragePath.parse("/top/cache/ab/abcdef").relativeTo(StoragePath.parse("/top"));
		int first = parsed.hashCode();
		for (StoragePath same : new StoragePath[] { resolved, cut, relative }) {
			assertThat(same).isEqualTo(parsed);
			assertThat(parsed).isEqualTo(same);
			assertThat(same.hashCode()).isEqualTo(first).isEqualTo(List.of("cache", "ab", "abcdef").hashCode());
			// Asked again, the kept hash is the same.
			assertThat(same.hashCode()).isEqualTo(first);
		}
		assertThat(parsed).isNotEqualTo(StoragePath.parse("/cache/ab/abcdeg"))
			.isNotEqualTo(StoragePath.parse("/cache/ab"))
			.isNotEqualTo("/cache/ab/abcdef");
		assertThat(StoragePath.root()).isEqualTo(StoragePath.parse("/"));
		assertThat(StoragePath.root().hashCode()).isEqualTo(StoragePath.parse("/").hashCode())
			.isEqualTo(List.of().hashCode());
	}

	@Test
	void navigatesByWholeNames() {
		StoragePath path = StoragePath.parse("/root2/x");
		assertThat(path.startsWith(StoragePath.parse("/root"))).isFalse();
		assertThat(path.startsWith(StoragePath.parse("/root2"))).isTrue();
		assertThat(path.startsWith(StoragePath.root())).isTrue();
		assertThat(path.parent()).isEqualTo(StoragePath.parse("/root2"));
		assertThat(StoragePath.root().parent()).isNull();
		assertThat(path.relativeTo(StoragePath.parse("/root2"))).isEqualTo(StoragePath.parse("/x"));
		assertThat(StoragePath.parse("/a").resolve("b")).isEqualTo(StoragePath.parse("/a/b"));
		assertThatThrownBy(() -> StoragePath.root().resolve("a/b")).isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> StoragePath.root().resolve("..")).isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> StoragePath.root().resolve("")).isInstanceOf(InvalidStoragePathException.class);
		assertThat(StoragePath.parse("/a/b").compareTo(StoragePath.parse("/a"))).isPositive();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "/a%20b|/a b", "/caf%C3%A9|/café", "/%E2%82%AC|/€", "/plain|/plain",
			"/a+b|/a+b", "/%7e|/~", "/€uro|/€uro" })
	void decodesUriPaths(String raw, String expected) {
		assertThat(StoragePath.parseUriPath(raw)).hasToString(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/a%2fb", "/a%2Fb", "/a%5cb", "/a%5Cb", "/%00", "/%", "/%4", "/%zz", "/%c0%af",
			"/%c0%ae%c0%ae", "/%e0%80%ae", "/%ed%a0%80", "/%f8%88%80%80%80", "/%fe", "/%80", "/%2e%2e", "/%2E%2E/x",
			"/.%2e", "/%0a" })
	void refusesMalformedOrDisguisedUriPaths(String raw) {
		assertThatThrownBy(() -> StoragePath.parseUriPath(raw)).isInstanceOf(InvalidStoragePathException.class);
	}

	@Test
	void queryValuesTreatPlusAsSpaceAndSlashAsASeparator() {
		assertThat(PercentDecoding.decodeQueryValue("%2Fa+b%2Fc")).isEqualTo("/a b/c");
		assertThatThrownBy(() -> PercentDecoding.decodeQueryValue("%c0%af"))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> PercentDecoding.decodeQueryValue("%00"))
			.isInstanceOf(InvalidStoragePathException.class);
		// Found by PercentDecodingFuzzTests: a literal NUL or lone surrogate got through
		// when nothing was escaped.
		assertThatThrownBy(() -> PercentDecoding.decodeQueryValue("a\0b"))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> PercentDecoding.decodeQueryValue("a\0+b"))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> PercentDecoding.decodeQueryValue("a\ud800"))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThat(PercentDecoding.decodeQueryValue("plain")).isEqualTo("plain");
	}

	@Test
	void rawUtf8IsDecodedStrictly() {
		assertThat(StoragePath.parseUtf8("/caf\u00e9".getBytes(StandardCharsets.UTF_8))).hasToString("/café");
		assertThatThrownBy(() -> StoragePath.parseUtf8(new byte[] { '/', (byte) 0xc3 }))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> StoragePath.parseUtf8(new byte[] { '/', (byte) 0xc0, (byte) 0x80 }))
			.isInstanceOf(InvalidStoragePathException.class);
	}

	/**
	 * Random strings over a hostile alphabet: whatever is accepted has only valid names,
	 * and its string form parses back to the same path. Seeded, so a failure reproduces.
	 */
	@Test
	void acceptedPathsAreAlwaysSafeAndRoundTrip() {
		long seed = 20261122L;
		SplittableRandom random = new SplittableRandom(seed);
		List<String> alphabet = List.of("/", ".", "..", "a", "\\", "%", "2e", "2f", "\u0000", "\n", "~", "é", "e\u0301",
				"\ud83d\udce6", "\ud800", " ", ":", ".wharf", "-tmp", "\u202e", "%c0%ae", "\uff0e");
		for (int i = 0; i < 20_000; i++) {
			StringBuilder input = new StringBuilder();
			int parts = random.nextInt(1, 8);
			for (int p = 0; p < parts; p++) {
				input.append(alphabet.get(random.nextInt(alphabet.size())));
			}
			for (boolean uri : new boolean[] { false, true }) {
				StoragePath path;
				try {
					path = uri ? StoragePath.parseUriPath(input.toString()) : StoragePath.parse(input.toString());
				}
				catch (InvalidStoragePathException rejected) {
					continue;
				}
				for (String segment : path.segments()) {
					assertThat(segment).as("seed %d, input %s", seed, input)
						.isNotEmpty()
						.isNotIn(".", "..")
						.doesNotContain("/", "\\", "\u0000", "\n");
					assertThat(StoragePath.isReservedName(segment)).isFalse();
				}
				assertThat(StoragePath.parse(path.toString())).as("seed %d, input %s", seed, input).isEqualTo(path);
			}
		}
	}

}
