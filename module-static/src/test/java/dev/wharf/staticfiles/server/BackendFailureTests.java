package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A backend that fails: before the response starts, the client gets a clear status (503
 * with {@code Retry-After} for an unavailable backend); once the response has started,
 * the connection is closed short of the announced length, so no client can take a
 * truncated file for a complete one. The next connection works again.
 */
class BackendFailureTests {

	static final AtomicBoolean statFails = new AtomicBoolean();

	static final AtomicBoolean readFailsMidway = new AtomicBoolean();

	static StaticTestServer server;

	@BeforeAll
	static void start() {
		Mount memory = TestMounts.memory("flaky");
		CountingStorage flaky = new CountingStorage(memory.storage()) {

			@Override
			public Mono<FileEntry> stat(StoragePath path) {
				return statFails.get() ? Mono.error(new BackendUnavailableException("backend down")) : super.stat(path);
			}

			@Override
			public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
				Flux<DataBuffer> content = super.read(path, range);
				return readFailsMidway.get()
						? content.take(1).concatWith(Flux.error(new StorageIoException("disk gone"))) : content;
			}

		};
		SiteFixture.write(flaky);
		server = StaticTestServer.start(MountRegistry.of(new Mount("flaky", "memory", flaky)), "sites[0].mount=flaky",
				"sites[0].root=/site", "cache.max-file-size=1KB", "cache.revalidate-after=0s");
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@BeforeEach
	void heal() {
		statFails.set(false);
		readFailsMidway.set(false);
	}

	@Test
	void anUnavailableBackendGives503WithRetryAfter() throws IOException {
		statFails.set(true);
		Response response = RawHttp.exchange(server.port(), "GET", "/static/big.bin");
		assertThat(response.status()).isEqualTo(503);
		assertThat(response.header("Retry-After")).as("as every HTTP module answers an unavailable backend")
			.isEqualTo("5");
		statFails.set(false);
		assertThat(RawHttp.exchange(server.port(), "GET", "/static/big.bin").body()).isEqualTo(SiteFixture.BIG);
	}

	@Test
	void aBackendDyingMidTransferClosesTheConnectionShortOfTheLength() throws IOException {
		readFailsMidway.set(true);
		try (RawHttp http = RawHttp.open(server.port())) {
			Response response = http.exchange("GET", "/static/big.bin");
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(SiteFixture.BIG.length));
			assertThat(response.complete()).isFalse();
			assertThat(response.body().length).isLessThan(SiteFixture.BIG.length);
		}
		readFailsMidway.set(false);
		assertThat(RawHttp.exchange(server.port(), "GET", "/static/big.bin").body()).isEqualTo(SiteFixture.BIG);
	}

	@Test
	void aFailedReadOfASmallFileIsAnErrorNotAnEmptyFile() throws IOException {
		readFailsMidway.set(true);
		Response response = RawHttp.exchange(server.port(), "GET", "/static/style.css");
		assertThat(response.status()).isEqualTo(500);
		readFailsMidway.set(false);
		assertThat(RawHttp.exchange(server.port(), "GET", "/static/style.css").body()).isEqualTo(SiteFixture.STYLE);
	}

}
