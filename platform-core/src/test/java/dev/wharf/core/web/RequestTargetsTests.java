package dev.wharf.core.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RequestTargets}.
 */
class RequestTargetsTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "/a/b|/a/b|", "/a/b?x=1|/a/b|?x=1", "/a%2fb?x=/y|/a%2fb|?x=/y", "/a#f|/a|",
					"http://h/a/b?q|/a/b|?q", "http://h|/|", "http://h?x=/y|/|?x=/y", "https://h:8/a%20b|/a%20b|",
					"*||", "/?|/|?", "/a?b#c|/a|?b" })
	void pathAndQueryStayRaw(String target, String path, String query) {
		assertThat(RequestTargets.path(target)).isEqualTo((path == null) ? "" : path);
		assertThat(RequestTargets.query(target)).isEqualTo((query == null) ? "" : query);
	}

}
