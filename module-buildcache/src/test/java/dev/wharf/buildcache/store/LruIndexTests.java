package dev.wharf.buildcache.store;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import dev.wharf.core.storage.StoragePath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LruIndex}.
 */
class LruIndexTests {

	private final AtomicLong now = new AtomicLong(1_000_000);

	private final LongSupplier clock = this.now::get;

	/** Content plus charge of a 100-byte entry. */
	private static final long W = 100 + LruIndex.ENTRY_CHARGE;

	private static StoragePath p(String name) {
		return StoragePath.parse("/" + name);
	}

	private void later() {
		this.now.addAndGet(1000);
	}

	@Test
	void evictsTheLeastRecentlyUsedFirstWhenTheBudgetIsPassed() {
		LruIndex index = new LruIndex(3 * W, 0, this.clock);
		assertThat(index.record(p("a"), 100)).isEmpty();
		later();
		assertThat(index.record(p("b"), 100)).isEmpty();
		later();
		assertThat(index.record(p("c"), 100)).isEmpty();
		later();
		index.touch(p("a"));
		assertThat(index.record(p("d"), 100)).containsExactly(p("b"));
		assertThat(index.makeRoom(W + 50)).containsExactly(p("c"), p("a"));
		assertThat(index.bytes()).isEqualTo(W);
		assertThat(index.size()).isEqualTo(1);
	}

	@Test
	void aRecordedEntryIsNeverItsOwnVictimAndReplacingCountsOnce() {
		LruIndex index = new LruIndex(W, 0, this.clock);
		index.record(p("a"), 60);
		index.record(p("a"), 80);
		assertThat(index.bytes()).isEqualTo(80 + LruIndex.ENTRY_CHARGE);
		assertThat(index.record(p("huge"), 5 * W)).containsExactly(p("a"));
		assertThat(index.size()).isEqualTo(1);
		// An entry larger than the whole budget evicts nothing beforehand.
		assertThat(index.makeRoom(10 * W)).isEmpty();
	}

	@Test
	void shrinkFreesAtLeastWhatIsAskedFromTheOldest() {
		LruIndex index = new LruIndex(100 * W, 0, this.clock);
		for (String name : List.of("a", "b", "c", "d")) {
			index.record(p(name), 100);
			later();
		}
		assertThat(index.shrink(W + 1)).containsExactly(p("a"), p("b"));
		assertThat(index.bytes()).isEqualTo(2 * W);
	}

	@Test
	void entriesIdleForLongerThanTheMaximumAgeExpire() {
		LruIndex index = new LruIndex(10_000, 5_000, this.clock);
		index.record(p("old"), 1);
		later();
		index.record(p("used"), 1);
		later();
		index.record(p("new"), 1);
		this.now.addAndGet(3_500);
		index.touch(p("used"));
		this.now.addAndGet(1_000);
		assertThat(index.expire()).containsExactly(p("old"));
		this.now.addAndGet(1_000);
		assertThat(index.expire()).containsExactly(p("new"));
		assertThat(index.expire()).isEmpty();
		assertThat(index.snapshot()).extracting(LruIndex.Snapshot::path).containsExactly(p("used"));
	}

	@Test
	void restoredEntriesCountAsOlderThanEverythingUsedSinceStartUp() {
		LruIndex index = new LruIndex(4 * W, 0, this.clock);
		index.record(p("fresh"), 100);
		index.record(p("rewritten"), 100);
		List<StoragePath> evicted = index
			.restore(List.of(new LruIndex.Snapshot(p("second"), 100, 20), new LruIndex.Snapshot(p("first"), 100, 10),
					new LruIndex.Snapshot(p("third"), 100, 30), new LruIndex.Snapshot(p("rewritten"), 999, 5)));
		assertThat(evicted).containsExactly(p("first"));
		assertThat(index.snapshot()).extracting(LruIndex.Snapshot::path)
			.containsExactly(p("second"), p("third"), p("fresh"), p("rewritten"));
		assertThat(index.bytes()).isEqualTo(4 * W);
		assertThat(index.snapshot()).extracting(LruIndex.Snapshot::size).containsOnly(100L);
		index.forget(p("third"));
		assertThat(index.bytes()).isEqualTo(3 * W);
	}

	@Test
	void entriesRemovedBeforeTheFoundOnesArriveAreNotRestored() {
		LruIndex index = new LruIndex(2 * W, 0, this.clock);
		index.record(p("deleted"), 100);
		index.record(p("evicted"), 100);
		index.forget(p("deleted"));
		assertThat(index.record(p("new"), 100)).isEmpty();
		assertThat(index.record(p("newer"), 100)).containsExactly(p("evicted"));
		index.forget(p("newer"));
		assertThat(index.record(p("deleted"), 100)).isEmpty();
		// Found by a scan that ran before the removals; what was written again since
		// wins.
		assertThat(index.restore(List.of(new LruIndex.Snapshot(p("deleted"), 100, 1),
				new LruIndex.Snapshot(p("evicted"), 100, 2), new LruIndex.Snapshot(p("newer"), 100, 3))))
			.isEmpty();
		assertThat(index.snapshot()).extracting(LruIndex.Snapshot::path).containsExactly(p("new"), p("deleted"));
		assertThat(index.bytes()).isEqualTo(2 * W);
	}

}
