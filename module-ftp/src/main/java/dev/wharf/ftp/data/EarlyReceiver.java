package dev.wharf.ftp.data;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelConfig;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * Subscribes to a data connection's inbound bytes from the moment the connection exists,
 * and once its consumer asks for bytes, holds at most {@value #QUEUED_READS} reads that
 * were not asked for yet, pausing the socket's reads above that so that the rest waits in
 * the kernel.
 *
 * <p>
 * Why not leave this to Reactor Netty. It drops what a connection received if the
 * connection closes while nobody subscribed, so the subscription is taken at once. And it
 * hands every request of the consumer over to the event loop as a task: the storage's
 * writer thread asks for more every few buffers, and each of those requests woke the
 * event loop. Here a request drains the queue on the requesting thread, and the event
 * loop is woken only when paused reads resume. With
 * {@link DataConnections#NATIVE_TRANSPORT NIO} nothing is read while paused, so an upload
 * holds at most what its consumer asked for plus {@value #QUEUED_READS} reads. The reads
 * also pause when the {@link ReceiveBudget} of all uploads has no room, and resume when
 * it wakes this receiver; each request of the consumer (its storage wrote buffers and
 * gave them back) wakes the receivers waiting for room.
 *
 * <p>
 * Upstream signals arrive on the connection's event loop; the consumer may subscribe,
 * request and cancel from any thread, once. Signals to the consumer are serialized but
 * may come from the event loop or from the thread that requested. Each buffer handed on
 * is retained for the consumer, which must release it.
 */
final class EarlyReceiver implements CoreSubscriber<ByteBuf> {

	/** Reads held beyond the consumer's demand before the socket's reads are paused. */
	static final int QUEUED_READS = 2;

	private final ChannelConfig channel;

	private final ReceiveBudget budget;

	private final boolean waitsForRoom;

	private final AtomicBoolean waitingForRoom = new AtomicBoolean();

	// Offered on the event loop only, polled by whichever thread drains.
	private final Queue<ByteBuf> queue = new ConcurrentLinkedQueue<>();

	private final AtomicInteger queued = new AtomicInteger();

	private final AtomicBoolean paused = new AtomicBoolean();

	private final AtomicInteger draining = new AtomicInteger();

	private final AtomicLong requested = new AtomicLong();

	private final AtomicBoolean flowing = new AtomicBoolean();

	private volatile boolean wanted;

	private volatile @Nullable Subscription upstream;

	private volatile @Nullable Subscriber<? super ByteBuf> consumer;

	// Guarded by this.
	private boolean attached;

	private volatile boolean cancelled;

	private volatile boolean done;

	private volatile @Nullable Throwable error;

	// Touched by the draining thread only.
	private boolean terminated;

	/**
	 * Creates a receiver for one connection.
	 * @param channel the configuration of the connection's channel, whose reads are
	 * paused and resumed
	 * @param budget the read buffers of all uploads, which pause this one's reads when it
	 * has no room
	 * @param waitsForRoom whether reads pause while the budget has no room. Not under
	 * TLS: the TLS handler keeps a partial record in a buffer from the same pool until
	 * the rest is read, so hundreds of uploads paused for room could hold the whole
	 * budget in partial records that only their own next reads complete. Under TLS reads
	 * go on at the smallest size instead
	 */
	EarlyReceiver(ChannelConfig channel, ReceiveBudget budget, boolean waitsForRoom) {
		this.channel = channel;
		this.budget = budget;
		this.waitsForRoom = waitsForRoom;
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		this.upstream = subscription;
		if (this.cancelled) {
			subscription.cancel();
			return;
		}
		startFlowing();
	}

	/**
	 * Asks Reactor Netty for everything once the consumer first asks for something. Until
	 * then nothing is read (a download's connection never reads); from then on pausing
	 * the reads is this class's job.
	 */
	private void startFlowing() {
		Subscription subscription = this.upstream;
		if (subscription != null && this.wanted && this.flowing.compareAndSet(false, true)) {
			subscription.request(Long.MAX_VALUE);
		}
	}

	@Override
	public void onNext(ByteBuf buffer) {
		if (this.cancelled) {
			return; // the buffer is Reactor Netty's, released after this call
		}
		this.queue.offer(buffer.retain());
		this.queued.incrementAndGet();
		drain();
		// Checked after the hand-off, so that a consumer with demand never makes the
		// reads pause and resume for the
		// queue's sake; the budget's room is checked after every read, so a connection
		// reads at most one read past it.
		if (this.queued.get() >= QUEUED_READS || !hasRoom()) {
			pause();
		}
	}

	/**
	 * Stops reading. The flag is set after the reads stop so that a drainer which sees it
	 * always resumes after this pause, never before it; the check that follows catches a
	 * drain that ended before the flag was set.
	 */
	private void pause() {
		this.channel.setAutoRead(false);
		this.paused.set(true);
		resumeIfRoom();
	}

	/**
	 * Resumes paused reads if few enough are queued and the budget has room; without
	 * room, waits for it.
	 */
	private void resumeIfRoom() {
		if (this.queued.get() < QUEUED_READS && this.paused.get()) {
			if (hasRoom()) {
				resume();
			}
			else if (this.waitingForRoom.compareAndSet(false, true)) {
				this.budget.whenRoom(this::roomGranted);
			}
		}
	}

	/** Reads again, once, whichever thread gets here first. */
	private void resume() {
		if (this.paused.compareAndSet(true, false)) {
			this.channel.setAutoRead(true);
		}
	}

	private boolean hasRoom() {
		return !this.waitsForRoom || this.budget.hasRoom();
	}

	/**
	 * The budget made room for this receiver: resume unless cancelled or enough is queued
	 * (a drain resumes then).
	 */
	private void roomGranted() {
		this.waitingForRoom.set(false);
		if (!this.cancelled && this.queued.get() < QUEUED_READS) {
			resume();
		}
	}

	@Override
	public void onError(Throwable failure) {
		this.error = failure;
		this.done = true;
		drain();
	}

	@Override
	public void onComplete() {
		this.done = true;
		drain();
	}

	/** The bytes, for one consumer. */
	Flux<ByteBuf> flux() {
		Publisher<ByteBuf> publisher = this::attach;
		return Flux.from(publisher);
	}

	private void attach(Subscriber<? super ByteBuf> target) {
		synchronized (this) {
			if (this.attached || this.cancelled) {
				Operators.error(target, new IllegalStateException("The data connection can be received only once"));
				return;
			}
			this.attached = true;
		}
		target.onSubscribe(new Subscription() {

			@Override
			public void request(long n) {
				if (Operators.validate(n)) {
					EarlyReceiver.this.requested.getAndUpdate(current -> Operators.addCap(current, n));
					EarlyReceiver.this.wanted = true;
					startFlowing();
					drain();
					EarlyReceiver.this.budget.wake();
				}
			}

			@Override
			public void cancel() {
				EarlyReceiver.this.cancel();
			}

		});
		// Drains see the consumer only once its onSubscribe returned: an end arriving
		// meanwhile on another thread
		// (the event loop, or the timer that ends a receive after its connection closed)
		// was handed to a
		// consumer still subscribing, and an upload's publishOn then failed with a
		// NullPointerException on the
		// storage's thread and hung (FtpsTests, spoiled handshakes). Requests made during
		// onSubscribe are kept.
		this.consumer = target;
		drain();
	}

	/** Stops receiving; buffers held are released. */
	void cancel() {
		this.cancelled = true;
		Subscription subscription = this.upstream;
		if (subscription != null) {
			subscription.cancel();
		}
		drain();
	}

	/**
	 * Hands queued buffers and the end to the consumer; one thread at a time, the others
	 * leave work for it.
	 */
	private void drain() {
		if (this.draining.getAndIncrement() != 0) {
			return;
		}
		int missed = 1;
		do {
			if (this.cancelled) {
				release();
			}
			else {
				Subscriber<? super ByteBuf> target = this.consumer;
				if (target != null && !this.terminated) {
					handOn(target);
				}
			}
			missed = this.draining.addAndGet(-missed);
		}
		while (missed != 0);
	}

	private void handOn(Subscriber<? super ByteBuf> target) {
		long demand = this.requested.get();
		long emitted = 0;
		while (emitted != demand && !this.cancelled) {
			ByteBuf buffer = this.queue.poll();
			if (buffer == null) {
				break;
			}
			this.queued.decrementAndGet();
			target.onNext(buffer);
			emitted++;
		}
		if (emitted > 0 && demand != Long.MAX_VALUE) {
			this.requested.addAndGet(-emitted);
		}
		resumeIfRoom();
		// done is read before the queue: a buffer offered before the end is then seen as
		// not empty.
		if (this.done && this.queue.isEmpty() && !this.cancelled) {
			this.terminated = true;
			Throwable failure = this.error;
			if (failure != null) {
				target.onError(failure);
			}
			else {
				target.onComplete();
			}
		}
	}

	private void release() {
		ByteBuf buffer;
		while ((buffer = this.queue.poll()) != null) {
			this.queued.decrementAndGet();
			buffer.release();
		}
	}

}
