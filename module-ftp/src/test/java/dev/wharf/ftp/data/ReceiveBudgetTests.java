package dev.wharf.ftp.data;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ReceiveBudget}: large reads while the pool's buffers stay under the budget,
 * shared reads while there is room for one, the smallest read and no room beyond, and
 * connections waiting for room resumed only as far as the buffers given back make room,
 * without anyone telling the budget. The buffers' memory is counted from the pool itself.
 */
class ReceiveBudgetTests {

	private static final long BUDGET = 1024 * 1024;

	@Test
	void readsStayLargeUntilTheBudgetHasNoRoomForASharedRead() {
		ReceiveBudget budget = new ReceiveBudget(BUDGET);
		assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MAX_READ);
		assertThat(budget.hasRoom()).isTrue();
		List<ByteBuf> held = new ArrayList<>();
		try {
			held.addAll(take(budget, 13)); // 832 KiB: no room for a 256 KiB read, room
											// for 64 KiB ones
			assertThat(held).allMatch(ByteBuf::isDirect);
			assertThat(budget.readSize()).isEqualTo(ReceiveBudget.SHARED_READ);
			assertThat(budget.hasRoom()).isTrue();
			held.addAll(take(budget, 3)); // the whole budget
			assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MIN_READ);
			assertThat(budget.hasRoom()).isFalse();
		}
		finally {
			held.forEach(ByteBuf::release);
		}
		assertThat(budget.heldBytes()).isZero();
		assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MAX_READ);
	}

	@Test
	void withNothingHeldThereIsRoomUnderAnyBudget() {
		ReceiveBudget budget = new ReceiveBudget(0);
		assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MIN_READ);
		assertThat(budget.hasRoom()).isTrue();
		ByteBuf one = budget.buffers().ioBuffer(ReceiveBudget.MIN_READ);
		assertThat(budget.hasRoom()).isFalse();
		one.release();
		assertThat(budget.hasRoom()).isTrue();
	}

	@Test
	void waitingConnectionsAreResumedOnceBuffersComeBackWithoutAnyoneTellingTheBudget() throws Exception {
		ReceiveBudget budget = new ReceiveBudget(BUDGET);
		List<ByteBuf> held = take(budget, 16);
		AtomicInteger resumed = new AtomicInteger();
		try {
			for (int i = 0; i < 3; i++) {
				budget.whenRoom(resumed::incrementAndGet);
			}
			// Time passes with the budget still spent: nobody may be resumed meanwhile.
			await("nobody resumes while the budget is spent").during(Duration.ofMillis(50))
				.atMost(Duration.ofSeconds(10))
				.until(() -> resumed.get() == 0);

			// Given back as the storage's threads do, without calling the budget: it
			// looks again by itself.
			held.remove(0).release();
			await().atMost(Duration.ofSeconds(5)).until(() -> resumed.get() == 3);
		}
		finally {
			held.forEach(ByteBuf::release);
		}
		budget.whenRoom(resumed::incrementAndGet);
		assertThat(resumed).as("with room a connection is resumed at once").hasValue(4);
	}

	@Test
	void chunksOutliveTheReadsInThem() {
		// An upload whose storage keeps up with its client: each read is written and
		// given back before the next one arrives.
		ReceiveBudget budget = new ReceiveBudget(16 * 1024 * 1024);
		int freed = 0;
		for (int i = 0; i < 200; i++) {
			budget.buffers().ioBuffer(ReceiveBudget.MAX_READ).release();
			if (usedDirectMemory(budget) == 0) {
				freed++;
			}
		}
		assertThat(freed).as("chunks freed (and the next read's zeroed afresh), of 200 reads").isZero();
		assertThat(budget.heldBytes()).isZero();
	}

	@Test
	void concurrentUploadsKeepTheirChunk() {
		// A hundred uploads' reads: taken and given back in random order, with buffers
		// held throughout.
		ReceiveBudget budget = new ReceiveBudget(16 * 1024 * 1024);
		Random random = new Random(42);
		List<ByteBuf> held = new ArrayList<>();
		int freed = 0;
		try {
			for (int i = 0; i < 5000; i++) {
				if (held.size() < 10 || (held.size() < 100 && budget.hasRoom() && random.nextBoolean())) {
					held.add(budget.buffers().ioBuffer(budget.readSize()));
				}
				else {
					long before = usedDirectMemory(budget);
					held.remove(random.nextInt(held.size())).release();
					if (usedDirectMemory(budget) < before) {
						freed++;
					}
				}
			}
		}
		finally {
			held.forEach(ByteBuf::release);
		}
		assertThat(freed).as("chunks freed while the uploads went on").isZero();
	}

	@Test
	void chunksAreAsLargeAsTheBudgetFromOneToSixteenMegabytes() {
		assertThat(new ReceiveBudget(0).chunkSize()).isEqualTo(1024 * 1024);
		assertThat(new ReceiveBudget(1024 * 1024).chunkSize()).isEqualTo(1024 * 1024);
		assertThat(new ReceiveBudget(4 * 1024 * 1024).chunkSize()).isEqualTo(4 * 1024 * 1024);
		assertThat(new ReceiveBudget(12 * 1024 * 1024).chunkSize()).isEqualTo(8 * 1024 * 1024);
		assertThat(new ReceiveBudget(16 * 1024 * 1024).chunkSize()).isEqualTo(16 * 1024 * 1024);
		assertThat(new ReceiveBudget(1024L * 1024 * 1024).chunkSize()).isEqualTo(16 * 1024 * 1024);
	}

	private static long usedDirectMemory(ReceiveBudget budget) {
		return ((PooledByteBufAllocator) budget.buffers()).metric().usedDirectMemory();
	}

	private static List<ByteBuf> take(ReceiveBudget budget, int sharedReads) {
		List<ByteBuf> buffers = new ArrayList<>();
		for (int i = 0; i < sharedReads; i++) {
			buffers.add(budget.buffers().ioBuffer(ReceiveBudget.SHARED_READ));
		}
		return buffers;
	}

}
