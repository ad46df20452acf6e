package dev.wharf.core.web;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EntityTags}.
 */
class EntityTagsTests {

	@Test
	void tagsLookLikeNginxWithSubSecondPrecisionWhenThereIsSome() {
		assertThat(EntityTags.of(87, Instant.ofEpochSecond(0x6b023024L))).isEqualTo("\"6b023024-57\"");
		assertThat(EntityTags.of(87, Instant.ofEpochSecond(0x6b023024L, 0x10))).isEqualTo("\"6b023024.10-57\"");
		assertThat(EntityTags.of(88, Instant.ofEpochSecond(1)))
			.isNotEqualTo(EntityTags.of(87, Instant.ofEpochSecond(1)));
		assertThat(EntityTags.weak("\"a\"")).isEqualTo("W/\"a\"");
		assertThat(EntityTags.weak("W/\"a\"")).isEqualTo("W/\"a\"");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			// header | tag | weak comparison matches | strong comparison matches ("*" is
			// any current representation,
			// RFC 9110 section 13.1.1, so it holds for a weak tag too)
			"\"a\"|\"a\"|true|true", "W/\"a\"|\"a\"|true|false", "\"a\"|W/\"a\"|true|false",
			"W/\"a\"|W/\"a\"|true|false", "\"b\", \"a\"|\"a\"|true|true", "\"b\",W/\"a\"|\"a\"|true|false",
			"*|\"a\"|true|true", "*|W/\"a\"|true|true", "\"b\"|\"a\"|false|false", "\"a,b\"|\"a\"|false|false",
			"\"a,b\"|\"a,b\"|true|true", "a|\"a\"|true|true", "\"ab\"|\"a\"|false|false", "\"a|\"a\"|false|false",
			"W/|\"a\"|false|false", "  ,  |\"a\"|false|false",
			// Not weak tags (the indicator is "W/", case-sensitive, right before the
			// quote), and not the strong tag
			// "a" either, which a parser that skips what it does not expect (Spring's
			// ETag.parse) would read.
			"W/ \"a\"|\"a\"|false|false", "w/\"a\"|\"a\"|false|false", "w/\"a\"|W/\"a\"|false|false" })
	void matching(String header, String tag, boolean weak, boolean strong) {
		assertThat(EntityTags.matches(header, tag, true)).as("weak").isEqualTo(weak);
		assertThat(EntityTags.matches(header, tag, false)).as("strong").isEqualTo(strong);
	}

}
