package dev.wharf.buildcache.store;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.wharf.core.storage.StoragePath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LruIndex}.
 */
class LruIndexTests {

	private final AtomicLong now = new AtomicLong(1_000_000);

	private final Clock clock = new Clock() {

		@Override
		public java.time.ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return Instant.ofEpochMilli(LruIndexTests.this.now.get());
		}

	};

	private static StoragePath p(String name) {
		return StoragePath.parse("/" + name);
	}

	private void later() {
		this.now.addAndGet(1000);
	}

	@Test
	void evictsTheLeastRecentlyUsedFirstWhenTheBudgetIsPassed() {
		LruIndex index = new LruIndex(300, 0, this.clock);
		assertThat(index.record(p("a"), 100)).isEmpty();
		later();
		assertThat(index.record(p("b"), 100)).isEmpty();
		later();
		assertThat(index.record(p("c"), 100)).isEmpty();
		later();
		index.touch(p("a"));
		assertThat(index.record(p("d"), 100)).containsExactly(p("b"));
		assertThat(index.makeRoom(150)).containsExactly(p("c"), p("a"));
		assertThat(index.bytes()).isEqualTo(100);
		assertThat(index.size()).isEqualTo(1);
	}

	@Test
	void aRecordedEntryIsNeverItsOwnVictimAndReplacingCountsOnce() {
		LruIndex index = new LruIndex(100, 0, this.clock);
		index.record(p("a"), 60);
		index.record(p("a"), 80);
		assertThat(index.bytes()).isEqualTo(80);
		assertThat(index.record(p("huge"), 500)).containsExactly(p("a"));
		assertThat(index.size()).isEqualTo(1);
		// An entry larger than the whole budget evicts nothing beforehand.
		assertThat(index.makeRoom(1000)).isEmpty();
	}

	@Test
	void shrinkFreesAtLeastWhatIsAskedFromTheOldest() {
		LruIndex index = new LruIndex(10_000, 0, this.clock);
		for (String name : List.of("a", "b", "c", "d")) {
			index.record(p(name), 100);
			later();
		}
		assertThat(index.shrink(150)).containsExactly(p("a"), p("b"));
		assertThat(index.bytes()).isEqualTo(200);
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
		LruIndex index = new LruIndex(400, 0, this.clock);
		index.record(p("fresh"), 100);
		index.record(p("rewritten"), 100);
		List<StoragePath> evicted = index.restore(List.of(new LruIndex.Snapshot(p("second"), 100, 20),
				new LruIndex.Snapshot(p("first"), 100, 10), new LruIndex.Snapshot(p("third"), 100, 30),
				new LruIndex.Snapshot(p("rewritten"), 999, 5)));
		assertThat(evicted).containsExactly(p("first"));
		assertThat(index.snapshot()).extracting(LruIndex.Snapshot::path)
			.containsExactly(p("second"), p("third"), p("fresh"), p("rewritten"));
		assertThat(index.bytes()).isEqualTo(400);
		index.forget(p("third"));
		assertThat(index.bytes()).isEqualTo(300);
	}

}
