package dev.wharf.filemanager.http;

import dev.wharf.core.storage.InvalidStoragePathException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link Query}.
 */
class QueryTests {

	@Test
	void decodesOnceAndStrictly() {
		Query query = new Query("path=%2Fdata%2Fr%C3%A9sum%C3%A9+1.txt&q=a%2Bb&empty=&flag");
		assertThat(query.optional("path")).isEqualTo("/data/résumé 1.txt");
		assertThat(query.optional("q")).isEqualTo("a+b");
		assertThat(query.optional("empty")).isEmpty();
		assertThat(query.flag("flag")).isTrue();
		assertThat(query.optional("missing")).isNull();
		assertThat(query.optional("pat")).isNull();
		assertThat(new Query(null).optional("path")).isNull();
		assertThatThrownBy(() -> new Query("path=%c0%ae").optional("path"))
			.isInstanceOf(InvalidStoragePathException.class);
		assertThatThrownBy(() -> new Query("path=%zz").optional("path"))
			.isInstanceOf(InvalidStoragePathException.class);
	}

	@Test
	void aSingleParameterGivenTwiceIsRefusedButRepeatableOnesAreKept() {
		Query query = new Query("path=/a&path=/b&to=/c");
		assertThatThrownBy(() -> query.optional("path")).isInstanceOf(ApiException.class)
			.hasMessageContaining("more than once");
		assertThat(query.all("path")).containsExactly("/a", "/b");
		assertThatThrownBy(() -> query.required("from")).isInstanceOf(ApiException.class)
			.hasMessageContaining("Missing");
	}

}
