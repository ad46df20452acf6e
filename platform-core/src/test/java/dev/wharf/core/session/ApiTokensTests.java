package dev.wharf.core.session;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.session.ApiTokens.IssuedToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ApiTokens} over a {@link FileApiTokenStore}: the contract of every
 * token store, with "replicas" sharing the state folder, and what only the file does.
 */
class ApiTokensTests extends AbstractApiTokenStoreContractTests {

	@TempDir
	Path state;

	private final List<FileApiTokenStore> stores = new ArrayList<>();

	@Override
	protected FileApiTokenStore store() {
		FileApiTokenStore created = new FileApiTokenStore(this.state.resolve(FileApiTokenStore.FILE_NAME),
				Schedulers.newBoundedElastic(1, 100, "test-tokens"), Duration.ofMillis(200));
		this.stores.add(created);
		return created;
	}

	@Override
	protected Duration propagation() {
		return Duration.ofSeconds(10);
	}

	@AfterEach
	void close() {
		this.stores.forEach(FileApiTokenStore::close);
	}

	@Test
	void onlyTheDigestIsStored() throws Exception {
		ApiTokens tokens = new ApiTokens(store(), this.clock);
		IssuedToken issued = tokens.issue(this.alice, "ci\tjob\nname", null).block(TIMEOUT);
		assertThat(issued.secret()).startsWith("wharf_").hasSize(6 + 43);
		assertThat(issued.token().label()).isEqualTo("cijobname");
		String file = Files.readString(this.state.resolve(FileApiTokenStore.FILE_NAME));
		assertThat(file).contains(issued.token().digest()).doesNotContain(issued.secret().substring(6));
		assertThat(issued.toString()).doesNotContain(issued.secret());
	}

	@Test
	void tokensSurviveARestart() {
		FileApiTokenStore store = store();
		IssuedToken forever = new ApiTokens(store, this.clock).issue(this.alice, "a", null).block(TIMEOUT);
		IssuedToken week = new ApiTokens(store, this.clock).issue(this.alice, "b", Duration.ofDays(7)).block(TIMEOUT);
		store.close();
		ApiTokens restarted = new ApiTokens(store(), this.clock);
		assertThat(restarted.list("alice").collectList().block(TIMEOUT)).hasSize(2);
		assertThat(restarted.authenticate(forever.secret()).block(TIMEOUT)).isNotNull();
		assertThat(restarted.authenticate(week.secret()).block(TIMEOUT)).isNotNull();
	}

	@Test
	void labelsAreCleanedAndCut() {
		assertThat(ApiTokens.cleanLabel("  ")).isEqualTo("token");
		assertThat(ApiTokens.cleanLabel("x".repeat(100))).hasSize(64);
	}

}
