package dev.wharf.buildcache.store;

import dev.wharf.core.storage.InvalidStoragePathException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link CacheKey}.
 */
class CacheKeyTests {

	@ParameterizedTest
	@ValueSource(strings = { "0123456789abcdef0123456789abcdef", "v1.1/org.example/demo/5f3c0a1b2c3d4e5f/buildinfo.xml",
			"v1.2/g/a/0011/demo-1.0-tests.jar", "a_b~c+d=e@f", "%61bc" })
	void keysRealClientsSendAreAccepted(String raw) {
		CacheKey key = CacheKey.parse(raw);
		assertThat(key.path().depth()).isPositive();
		assertThat(key.toString()).doesNotStartWith("/");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "/", "abc/", "/abc", "a//b", "..", "a/../b", "%2e%2e", "a%2fb", "a%5cb", "a%00b",
			"a b", "a%20b", "caf%C3%A9", "%c0%ae", ".wharf", ".wharf-index", "x/.wharf-tmp-1", "a:b", "a*b", "a?b",
			"1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17" })
	void anythingElseIsRefused(String raw) {
		assertThatThrownBy(() -> CacheKey.parse(raw)).isInstanceOf(InvalidStoragePathException.class);
	}

}
