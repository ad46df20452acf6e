package dev.wharf.core.web;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import dev.wharf.core.storage.StorageErrorKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StorageErrorStatus}: the one table from storage errors to HTTP
 * statuses.
 */
class StorageErrorStatusTests {

	@ParameterizedTest
	@CsvSource({ "NOT_FOUND, 404, 0", "ALREADY_EXISTS, 409, 0", "CONFLICT, 409, 0", "ACCESS_DENIED, 403, 0",
			"UNSUPPORTED, 501, 0", "BACKEND_UNAVAILABLE, 503, 5", "QUOTA_EXCEEDED, 507, 0", "INVALID_PATH, 400, 0",
			"INVALID_CONTENT, 400, 0", "IO_ERROR, 500, 0" })
	void everyKindHasItsStatus(StorageErrorKind kind, int status, int retryAfterSeconds) {
		assertThat(StorageErrorStatus.of(kind).value()).isEqualTo(status);
		Duration retryAfter = StorageErrorStatus.retryAfter(kind);
		assertThat((retryAfter != null) ? retryAfter.toSeconds() : 0).isEqualTo(retryAfterSeconds);
	}

	@Test
	void anUnavailableBackendIsTheOnlyKindToRetryAndNeverABadGateway() {
		Set<StorageErrorKind> retried = EnumSet.noneOf(StorageErrorKind.class);
		for (StorageErrorKind kind : StorageErrorKind.values()) {
			assertThat(StorageErrorStatus.of(kind).value()).as(kind.name()).isNotEqualTo(502);
			if (StorageErrorStatus.retryAfter(kind) != null) {
				retried.add(kind);
			}
		}
		assertThat(retried).containsExactly(StorageErrorKind.BACKEND_UNAVAILABLE);
	}

}
