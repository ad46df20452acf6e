package dev.wharf.ftp.data;

import java.io.OutputStream;
import java.net.Socket;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Operators;

import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static dev.wharf.core.storage.StorageTestSupport.sha256;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Uploads sharing a {@link ReceiveBudget} on real TCP connections on 127.0.0.1, each
 * behind an {@link EarlyReceiver} and a consumer that, like the storage's writer, asks
 * for four buffers ahead and gives each back a moment after it came: together they hold
 * no more than the budget plus one smallest read per connection, connections that wait
 * for room are woken as buffers come back, and every byte arrives in order. A receiver
 * that does not wait for room (under TLS) reads on.
 */
class ReceiveBudgetSharingTests {

	private static final long BUDGET = 2L * ReceiveBudget.SHARED_READ;

	private static final int UPLOADS = 3;

	private static final int UPLOAD = 4 * 1024 * 1024;

	private final ReceiveBudget budget = new ReceiveBudget(BUDGET);

	private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();

	private final List<SlowWriter> writers = new ArrayList<>();

	// One event loop: reads are sized one after the other, as on each loop of
	// DataConnections.
	private ReceivingServer server;

	@BeforeEach
	void listen() {
		this.server = new ReceivingServer("budget-sharing-test", this.budget, early -> {
			SlowWriter slow = new SlowWriter(this.writer);
			synchronized (this.writers) {
				this.writers.add(slow);
			}
			early.flux().subscribe(slow);
		});
	}

	@AfterEach
	void stop() {
		this.server.close();
		this.writer.shutdownNow();
	}

	@Test
	void uploadsSharingTheBudgetHoldNoMoreThanItPlusOneSmallReadEachAndArriveWhole() throws Exception {
		AtomicLong mostHeld = new AtomicLong();
		AtomicBoolean sampling = new AtomicBoolean(true);
		Thread sampler = new Thread(() -> {
			while (sampling.get()) {
				mostHeld.accumulateAndGet(this.budget.heldBytes(), Math::max);
				Thread.onSpinWait();
			}
		}, "held-sampler");
		sampler.setDaemon(true);
		sampler.start();
		List<byte[]> uploads = new ArrayList<>();
		List<Socket> clients = new ArrayList<>();
		List<CompletableFuture<Void>> sending = new ArrayList<>();
		try {
			for (int i = 0; i < UPLOADS; i++) {
				byte[] upload = randomBytes(i, 0, UPLOAD);
				uploads.add(upload);
				Socket client = new Socket("127.0.0.1", this.server.port());
				clients.add(client);
				sending.add(CompletableFuture.runAsync(() -> {
					try (OutputStream out = client.getOutputStream()) {
						out.write(upload);
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}));
			}
			CompletableFuture.allOf(sending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			for (int i = 0; i < UPLOADS; i++) {
				SlowWriter slow = writerFor(i);
				slow.done.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			sampling.set(false);
			sampler.join();
			for (Socket client : clients) {
				client.close();
			}
		}
		List<String> expected = new ArrayList<>();
		for (byte[] upload : uploads) {
			expected.add(sha256(upload));
		}
		List<String> received = new ArrayList<>();
		synchronized (this.writers) {
			for (SlowWriter slow : this.writers) {
				assertThat(slow.received.get()).isEqualTo(UPLOAD);
				received.add(slow.digest());
			}
		}
		assertThat(received).containsExactlyInAnyOrderElementsOf(expected);
		assertThat(mostHeld.get()).as("the budget bound the uploads")
			.isGreaterThan(BUDGET / 2)
			.isLessThanOrEqualTo(BUDGET + UPLOADS * 2L * ReceiveBudget.MIN_READ);
		assertThat(this.budget.heldBytes()).isZero();
	}

	@ParameterizedTest(name = "waits for room: {0}")
	@ValueSource(booleans = { true, false })
	void aReceiverPausesForTheSpentBudgetOnlyWhereItWaitsForRoomAndResumesWhenBuffersComeBack(boolean waits) {
		ReceiveBudget spent = new ReceiveBudget(ReceiveBudget.SHARED_READ);
		ByteBuf holding = spent.buffers().ioBuffer(ReceiveBudget.SHARED_READ);
		EmbeddedChannel channel = new EmbeddedChannel();
		List<ByteBuf> handedOn = new ArrayList<>();
		try {
			EarlyReceiver early = new EarlyReceiver(channel.config(), spent, waits);
			early.onSubscribe(Operators.emptySubscription());
			early.flux().subscribe(handedOn::add);
			ByteBuf read = Unpooled.buffer(1).writeByte(1);
			early.onNext(read);
			read.release(); // Reactor Netty's reference, released after onNext
			assertThat(handedOn).hasSize(1);
			assertThat(channel.config().isAutoRead()).as("reading on").isEqualTo(!waits);

			holding.release();
			await().atMost(Duration.ofSeconds(5)).until(() -> channel.config().isAutoRead());
		}
		finally {
			if (holding.refCnt() > 0) {
				holding.release();
			}
			handedOn.forEach(ByteBuf::release);
			channel.finishAndReleaseAll();
		}
	}

	private SlowWriter writerFor(int index) {
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			synchronized (this.writers) {
				return this.writers.size() > index;
			}
		});
		synchronized (this.writers) {
			return this.writers.get(index);
		}
	}

	/**
	 * Asks for four buffers ahead, gives each back 200 µs after it came, and one more is
	 * asked for then.
	 */
	private static final class SlowWriter extends BaseSubscriber<ByteBuf> {

		private final ScheduledExecutorService writer;

		private final MessageDigest digest;

		private final AtomicLong received = new AtomicLong();

		private final CompletableFuture<Void> done = new CompletableFuture<>();

		SlowWriter(ScheduledExecutorService writer) {
			this.writer = writer;
			try {
				this.digest = MessageDigest.getInstance("SHA-256");
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			request(4);
		}

		@Override
		protected void hookOnNext(ByteBuf buffer) {
			// Checksummed at once, in order; given back later, as a write that takes a
			// while.
			synchronized (this) {
				byte[] bytes = new byte[buffer.readableBytes()];
				buffer.getBytes(buffer.readerIndex(), bytes);
				this.digest.update(bytes);
				this.received.addAndGet(bytes.length);
			}
			this.writer.schedule(() -> {
				buffer.release();
				request(1);
			}, 200, TimeUnit.MICROSECONDS);
		}

		@Override
		protected void hookOnComplete() {
			this.writer.execute(() -> this.done.complete(null));
		}

		@Override
		protected void hookOnError(Throwable failure) {
			this.done.completeExceptionally(failure);
		}

		synchronized String digest() {
			return HexFormat.of().formatHex(this.digest.digest());
		}

	}

}
