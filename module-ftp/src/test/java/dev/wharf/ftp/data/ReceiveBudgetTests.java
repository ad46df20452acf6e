package dev.wharf.ftp.data;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReceiveBudget}: large reads while the pool's buffers stay under the budget, an equal share of it per
 * upload above, and the buffers' memory counted from the pool itself.
 */
class ReceiveBudgetTests {

	private static final long BUDGET = 1024 * 1024;

	@Test
	void readsAreLargeUntilTheBuffersHeldReachTheBudget() {
		ReceiveBudget budget = new ReceiveBudget(BUDGET);
		for (int i = 0; i < 10; i++) {
			budget.started();
		}
		assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MAX_READ);
		List<ByteBuf> held = new ArrayList<>();
		try {
			while (budget.heldBytes() < BUDGET) {
				held.add(budget.buffers().ioBuffer(ReceiveBudget.MAX_READ));
			}
			assertThat(held).allMatch(ByteBuf::isDirect);
			// Over the budget: 1 MiB shared by ten uploads with six reads each in flight, rounded down to 1 KiB.
			assertThat(budget.readSize()).isEqualTo(17 * 1024);
		}
		finally {
			held.forEach(ByteBuf::release);
		}
		assertThat(budget.heldBytes()).isZero();
		assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MAX_READ);
	}

	@Test
	void aShareNeverGoesBelowTheSmallestRead() {
		ReceiveBudget budget = new ReceiveBudget(0);
		for (int i = 0; i < 1000; i++) {
			budget.started();
		}
		assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MIN_READ);
		for (int i = 0; i < 1000; i++) {
			budget.ended();
		}
		assertThat(budget.readSize()).isEqualTo(ReceiveBudget.MIN_READ);
	}

}
