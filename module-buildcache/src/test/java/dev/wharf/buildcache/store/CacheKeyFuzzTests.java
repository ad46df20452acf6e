package dev.wharf.buildcache.store;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wharf.core.storage.InvalidStoragePathException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes {@link CacheKey#parse} with raw request paths: every input is refused with
 * {@link InvalidStoragePathException} (any other exception is a finding) or gives a key
 * of at most {@value CacheKey#MAX_DEPTH} names made only of the allowed characters, none
 * of them {@code .} or {@code ..}, whose text form parses back to the same key.
 */
class CacheKeyFuzzTests {

	@FuzzTest(maxDuration = "5m")
	void parse(FuzzedDataProvider data) {
		String raw = data.consumeRemainingAsString();
		CacheKey key;
		try {
			key = CacheKey.parse(raw);
		}
		catch (InvalidStoragePathException ex) {
			return;
		}
		assertThat(key.path().depth()).isBetween(1, CacheKey.MAX_DEPTH);
		for (String name : key.path().segments()) {
			assertThat(name).isNotEqualTo(".").isNotEqualTo("..").matches("[A-Za-z0-9._~+=@-]+");
			assertThat(name).doesNotStartWith(".wharf-").isNotEqualTo(".wharf");
		}
		assertThat(CacheKey.parse(key.toString())).isEqualTo(key);
	}

}
