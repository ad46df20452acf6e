package dev.wharf.ftp.data;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.BaseSubscriber;

import static dev.wharf.core.storage.StorageTestSupport.randomBytes;
import static dev.wharf.core.storage.StorageTestSupport.sha256;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link EarlyReceiver} on a real TCP connection on 127.0.0.1, on the transport of
 * {@link DataConnections}: a consumer that falls behind makes the socket's reads pause
 * after a couple of reads, also when the client has closed (the rest waits in the kernel,
 * not in pooled buffers), bytes that arrive before anyone subscribes are kept, and
 * cancelling gives every held buffer back. Reads are the smallest size (the budget is
 * zero), so that a read too many shows.
 */
class EarlyReceiverTests {

	private static final int UPLOAD = 16 * 1024 * 1024;

	private final ReceiveBudget budget = new ReceiveBudget(0);

	private static final long HELD_AT_MOST = (1 + EarlyReceiver.QUEUED_READS) * (long) ReceiveBudget.MIN_READ;

	private final AtomicReference<EarlyReceiver> receiver = new AtomicReference<>();

	private ReceivingServer server;

	@BeforeEach
	void listen() {
		// On the connection's event loop, before it reads anything, as DataChannel does.
		this.server = new ReceivingServer("early-receiver-test", this.budget, this.receiver::set);
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	@Test
	void aConsumerThatFallsBehindHoldsOnlyWhatItAskedForAndTwoReads() throws Exception {
		byte[] upload = randomBytes(UPLOAD, 0, UPLOAD);
		try (Socket client = new Socket("127.0.0.1", this.server.port())) {
			CompletableFuture<Void> sending = send(client, upload);
			Consumer consumer = new Consumer(1);
			awaitReceiver().flux().subscribe(consumer);
			// Wait until the reads stop: the pool's bytes no longer change.
			awaitSteady();
			assertThat(this.budget.heldBytes())
				.as("bytes held by one read taken, plus what the receiver queues beyond it")
				.isGreaterThan(0)
				.isLessThanOrEqualTo(HELD_AT_MOST);
			assertThat(sending).isNotDone();

			consumer.takeEverything();
			sending.get(30, TimeUnit.SECONDS);
			client.shutdownOutput();
			assertReceivedWhole(consumer, upload);
		}
	}

	@Test
	void aClientThatClosedIsNotReadAheadOfTheConsumer() throws Exception {
		byte[] upload = randomBytes(100_000, 0, 100_000);
		try (Socket client = sentAndClosed(upload)) {
			Consumer consumer = new Consumer(1);
			awaitReceiver().flux().subscribe(consumer);
			awaitSteady();
			// Time passes with the consumer asking for nothing more: nothing may be read
			// ahead meanwhile.
			await("nothing read ahead").during(Duration.ofMillis(300))
				.atMost(Duration.ofSeconds(10))
				.until(() -> this.budget.heldBytes() <= HELD_AT_MOST);

			consumer.takeEverything();
			assertReceivedWhole(consumer, upload);
		}
	}

	@Test
	void bytesThatArriveAndEndBeforeTheConsumerSubscribesAreKept() throws Exception {
		byte[] upload = randomBytes(100_000, 0, 100_000);
		try (Socket client = sentAndClosed(upload)) {
			EarlyReceiver early = awaitReceiver();
			// Time for the bytes and the end to arrive before anyone subscribes: nothing
			// shows that they did
			// (without demand the receiver holds nothing in the budget), so there is
			// nothing to poll.
			Thread.sleep(300);
			Consumer consumer = new Consumer(Long.MAX_VALUE);
			early.flux().subscribe(consumer);
			assertReceivedWhole(consumer, upload);
		}
	}

	@Test
	void anEndArrivingWhileTheConsumerSubscribesIsHandedOnOnlyAfterItSubscribed() throws Exception {
		EarlyReceiver early = new EarlyReceiver(new EmbeddedChannel().config(), this.budget, true);
		CountDownLatch subscribing = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		List<String> signals = Collections.synchronizedList(new ArrayList<>());
		CoreSubscriber<ByteBuf> consumer = new CoreSubscriber<>() {

			@Override
			public void onSubscribe(Subscription subscription) {
				subscribing.countDown();
				try {
					proceed.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				subscription.request(1);
				signals.add("subscribed");
			}

			@Override
			public void onNext(ByteBuf buffer) {
				buffer.release();
				signals.add("next");
			}

			@Override
			public void onError(Throwable failure) {
				signals.add("error");
			}

			@Override
			public void onComplete() {
				signals.add("complete");
			}

		};
		Thread subscriber = new Thread(() -> early.flux().subscribe(consumer), "subscriber");
		subscriber.start();
		assertThat(subscribing.await(10, TimeUnit.SECONDS)).isTrue();
		// As the event loop, or the timer that ends a receive after its connection
		// closed, would: from another
		// thread, while the consumer is still in onSubscribe.
		early.onComplete();
		proceed.countDown();
		subscriber.join(10_000);
		assertThat(signals).containsExactly("subscribed", "complete");
	}

	@Test
	void cancellingReleasesEveryQueuedBuffer() throws Exception {
		byte[] upload = randomBytes(UPLOAD, 0, UPLOAD);
		try (Socket client = new Socket("127.0.0.1", this.server.port())) {
			send(client, upload);
			Consumer consumer = new Consumer(1);
			awaitReceiver().flux().subscribe(consumer);
			awaitSteady();
			assertThat(this.budget.heldBytes()).isGreaterThan(0);
			consumer.cancel();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.budget.heldBytes() == 0);
		}
	}

	/**
	 * The consumer got every byte, in order, the end of the stream, and no buffer is left
	 * held.
	 */
	private void assertReceivedWhole(Consumer consumer, byte[] upload) throws NoSuchAlgorithmException {
		await().atMost(Duration.ofSeconds(30)).until(consumer::isDone);
		assertThat(consumer.received.get()).isEqualTo(upload.length);
		assertThat(consumer.digest()).isEqualTo(sha256(upload));
		assertThat(this.budget.heldBytes()).isZero();
	}

	/** A client that sent the bytes and closed its side of the connection. */
	private Socket sentAndClosed(byte[] upload) throws IOException {
		Socket client = new Socket("127.0.0.1", this.server.port());
		client.getOutputStream().write(upload);
		client.shutdownOutput();
		return client;
	}

	private EarlyReceiver awaitReceiver() {
		await().atMost(Duration.ofSeconds(10)).until(() -> this.receiver.get() != null);
		return this.receiver.get();
	}

	/**
	 * Waits until bytes are held and their amount stays the same between two looks 200 ms
	 * apart.
	 */
	private void awaitSteady() {
		AtomicLong last = new AtomicLong(-1);
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
			long held = this.budget.heldBytes();
			return held != 0 && held == last.getAndSet(held);
		});
	}

	private static CompletableFuture<Void> send(Socket client, byte[] bytes) {
		return CompletableFuture.runAsync(() -> {
			try {
				OutputStream out = client.getOutputStream();
				out.write(bytes);
				out.flush();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	/**
	 * Keeps the first buffer it asked for until told to take everything, then checksums
	 * and releases all.
	 */
	private static final class Consumer extends BaseSubscriber<ByteBuf> {

		private final long initial;

		private final MessageDigest digest;

		private final AtomicLong received = new AtomicLong();

		private volatile ByteBuf kept;

		private volatile boolean done;

		Consumer(long initial) throws NoSuchAlgorithmException {
			this.initial = initial;
			this.digest = MessageDigest.getInstance("SHA-256");
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			request(this.initial);
		}

		@Override
		protected synchronized void hookOnNext(ByteBuf buffer) {
			if (this.initial != Long.MAX_VALUE && this.kept == null && this.received.get() == 0) {
				this.kept = buffer; // taken (and counted) once everything is requested
				return;
			}
			take(buffer);
		}

		private void take(ByteBuf buffer) {
			try {
				byte[] bytes = new byte[buffer.readableBytes()];
				buffer.readBytes(bytes);
				this.digest.update(bytes);
				this.received.addAndGet(bytes.length);
			}
			finally {
				buffer.release();
			}
		}

		void takeEverything() {
			synchronized (this) {
				take(this.kept);
				this.kept = null;
			}
			request(Long.MAX_VALUE);
		}

		@Override
		protected void hookOnComplete() {
			this.done = true;
		}

		@Override
		protected synchronized void hookOnCancel() {
			ByteBuf first = this.kept;
			this.kept = null;
			if (first != null) {
				first.release();
			}
		}

		boolean isDone() {
			return this.done;
		}

		synchronized String digest() {
			return HexFormat.of().formatHex(this.digest.digest());
		}

	}

}
