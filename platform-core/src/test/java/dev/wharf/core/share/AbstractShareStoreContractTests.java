package dev.wharf.core.share;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.storage.StoragePath;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link ShareStore} does, whether in the state file or shared in Redis: a
 * share made on one replica is found on another until revoked on either, only its creator
 * revokes it, a change keeps its download count, and downloads are counted atomically up
 * to the limit, however many replicas count at once.
 */
public abstract class AbstractShareStoreContractTests {

	protected static final Duration TIMEOUT = Duration.ofSeconds(10);

	/** A store; a second call gives another replica's store over the same shares. */
	protected abstract ShareStore store();

	/** How long a change made on one replica may take to be seen on another. */
	protected abstract Duration propagation();

	protected static Share share(String creator, int maxDownloads) {
		return new Share(Share.newId(), creator, "data", StoragePath.parse("/projects/report"), ShareRights.READ,
				PasswordHashing.hash("open sesame"), Instant.ofEpochMilli(1_900_000_000_000L), maxDownloads, 0,
				Instant.ofEpochMilli(1_800_000_000_000L));
	}

	@Test
	void aShareMadeOnOneReplicaIsFoundOnAnotherUntilRevokedOnEither() {
		ShareStore here = store();
		ShareStore there = store();
		Share share = share("alice", 0);
		here.put(share).block(TIMEOUT);
		assertThat(here.find(share.id()).block(TIMEOUT)).isEqualTo(share);
		await().pollDelay(Duration.ZERO)
			.atMost(propagation().plusMillis(200))
			.until(() -> share.equals(there.find(share.id()).block(TIMEOUT)));
		assertThat(there.remove("bob", share.id()).block(TIMEOUT)).as("another user's").isFalse();
		assertThat(there.find(share.id()).block(TIMEOUT)).isEqualTo(share);
		assertThat(there.remove("alice", share.id()).block(TIMEOUT)).isTrue();
		assertThat(there.find(share.id()).block(TIMEOUT)).isNull();
		await().pollDelay(Duration.ZERO)
			.atMost(propagation().plusMillis(200))
			.until(() -> here.find(share.id()).block(TIMEOUT) == null);
		assertThat(here.remove("alice", share.id()).block(TIMEOUT)).as("revoked already").isFalse();
	}

	@Test
	void unknownIdsAreNotFound() {
		assertThat(store().find(Share.newId()).block(TIMEOUT)).isNull();
		assertThat(store().countDownload(Share.newId()).block(TIMEOUT)).isFalse();
	}

	@Test
	void aUsersSharesAreListedOldestFirst() {
		ShareStore store = store();
		Share second = share("alice", 0);
		Share first = new Share(Share.newId(), "alice", "scratch", StoragePath.root(), ShareRights.UPLOAD, null, null,
				3, 0, second.created().minusSeconds(60));
		Share bobs = share("bob", 0);
		store.put(second).block(TIMEOUT);
		store.put(first).block(TIMEOUT);
		store.put(bobs).block(TIMEOUT);
		assertThat(store.list("alice").collectList().block(TIMEOUT)).containsExactly(first, second);
		assertThat(store.list("bob").collectList().block(TIMEOUT)).containsExactly(bobs);
		assertThat(store.list("carol").collectList().block(TIMEOUT)).isEmpty();
	}

	@Test
	void downloadsAreCountedUpToTheLimitAndAChangeKeepsTheCount() {
		ShareStore store = store();
		Share share = share("alice", 2);
		store.put(share).block(TIMEOUT);
		assertThat(store.countDownload(share.id()).block(TIMEOUT)).isTrue();
		Share changed = new Share(share.id(), "alice", "data", share.path(), ShareRights.READ_WRITE, null, null, 3, 0,
				share.created());
		store.put(changed).block(TIMEOUT);
		assertThat(store.find(share.id()).block(TIMEOUT)).isEqualTo(changed.withDownloads(1));
		assertThat(store.countDownload(share.id()).block(TIMEOUT)).isTrue();
		assertThat(store.countDownload(share.id()).block(TIMEOUT)).isTrue();
		assertThat(store.countDownload(share.id()).block(TIMEOUT)).as("past the limit").isFalse();
		Share usedUp = store.find(share.id()).block(TIMEOUT);
		assertThat(usedUp.downloads()).isEqualTo(3);
		assertThat(usedUp.isUsedUp()).isTrue();
	}

	@Test
	void concurrentDownloadsOnSeveralReplicasNeverPassTheLimit() {
		ShareStore here = store();
		ShareStore there = store();
		Share share = share("alice", 5);
		here.put(share).block(TIMEOUT);
		await().pollDelay(Duration.ZERO)
			.atMost(propagation().plusMillis(200))
			.until(() -> there.find(share.id()).block(TIMEOUT) != null);
		List<ShareStore> replicas = List.of(here, there);
		List<Boolean> counted = Flux.range(0, 20)
			.flatMap(i -> replicas.get(i % 2).countDownload(share.id()), 20)
			.collectList()
			.block(TIMEOUT);
		assertThat(new ArrayList<>(counted).stream().filter(Boolean::booleanValue).count()).isEqualTo(5);
		assertThat(here.find(share.id()).block(TIMEOUT).downloads()).isEqualTo(5);
	}

}
