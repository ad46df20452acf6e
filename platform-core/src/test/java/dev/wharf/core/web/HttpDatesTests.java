package dev.wharf.core.web;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HttpDates}.
 */
class HttpDatesTests {

	@Test
	void formatsAndParsesTheThreeFormats() {
		Instant instant = Instant.parse("1994-11-06T08:49:37Z");
		assertThat(HttpDates.format(instant.plusMillis(900))).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
		assertThat(HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT")).isEqualTo(instant);
		assertThat(HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT")).isEqualTo(instant);
		assertThat(HttpDates.parse("Sun Nov  6 08:49:37 1994")).isEqualTo(instant);
		assertThat(HttpDates.parse("06/11/1994")).isNull();
		assertThat(HttpDates.parse(null)).isNull();
	}

	@Test
	void nowIsTheCurrentSecond() {
		Instant before = Instant.now().minusSeconds(1);
		Instant now = HttpDates.parse(HttpDates.now());
		assertThat(now).isBetween(before, Instant.now().plusSeconds(1));
	}

}
