package dev.wharf.ftp.data;

import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * Subscribes to a connection's inbound bytes as soon as the connection exists, without asking for any, and
 * passes them on once the real consumer subscribes. Reactor Netty drops what a connection received if the
 * connection closes while nobody subscribed, and with epoll a peer's close makes Netty read everything that is
 * left: a small upload that arrives (and ends) before the storage subscribes would be lost. With this receiver
 * in place the bytes wait in Reactor Netty's queue until they are requested.
 *
 * <p>Upstream signals arrive on the connection's event loop; the consumer may subscribe from any thread, once.
 * Each buffer is retained for the consumer, which must release it.
 */
final class EarlyReceiver implements CoreSubscriber<ByteBuf> {

	private @Nullable Subscription upstream;

	private @Nullable Subscriber<? super ByteBuf> consumer;

	private long requestedEarly;

	private boolean cancelled;

	private boolean done;

	private @Nullable Throwable error;

	@Override
	public void onSubscribe(Subscription subscription) {
		long early;
		synchronized (this) {
			if (this.cancelled) {
				subscription.cancel();
				return;
			}
			this.upstream = subscription;
			early = this.requestedEarly;
			this.requestedEarly = 0;
		}
		if (early > 0) {
			subscription.request(early);
		}
	}

	@Override
	public void onNext(ByteBuf buffer) {
		Subscriber<? super ByteBuf> target;
		synchronized (this) {
			target = this.consumer;
		}
		if (target == null) {
			// Nothing is requested before the consumer subscribes, so this cannot happen; the buffer is Netty's.
			return;
		}
		target.onNext(buffer.retain());
	}

	@Override
	public void onError(Throwable failure) {
		terminate(failure);
	}

	@Override
	public void onComplete() {
		terminate(null);
	}

	private void terminate(@Nullable Throwable failure) {
		Subscriber<? super ByteBuf> target;
		synchronized (this) {
			this.done = true;
			this.error = failure;
			target = this.consumer;
		}
		if (target != null) {
			signal(target, failure);
		}
	}

	private static void signal(Subscriber<? super ByteBuf> target, @Nullable Throwable failure) {
		if (failure != null) {
			target.onError(failure);
		}
		else {
			target.onComplete();
		}
	}

	/** The bytes, for one consumer. */
	Flux<ByteBuf> flux() {
		Publisher<ByteBuf> publisher = this::attach;
		return Flux.from(publisher);
	}

	private void attach(Subscriber<? super ByteBuf> target) {
		boolean terminated;
		Throwable failure;
		synchronized (this) {
			if (this.consumer != null || this.cancelled) {
				Operators.error(target, new IllegalStateException("The data connection can be received only once"));
				return;
			}
			this.consumer = target;
			terminated = this.done;
			failure = this.error;
		}
		target.onSubscribe(new Subscription() {

			@Override
			public void request(long n) {
				EarlyReceiver.this.request(n);
			}

			@Override
			public void cancel() {
				EarlyReceiver.this.cancel();
			}

		});
		if (terminated) {
			signal(target, failure);
		}
	}

	private void request(long n) {
		Subscription subscription;
		synchronized (this) {
			subscription = this.upstream;
			if (subscription == null) {
				this.requestedEarly = Operators.addCap(this.requestedEarly, n);
				return;
			}
		}
		subscription.request(n);
	}

	/** Stops receiving; buffers waiting upstream are released there. */
	void cancel() {
		Subscription subscription;
		synchronized (this) {
			this.cancelled = true;
			subscription = this.upstream;
		}
		if (subscription != null) {
			subscription.cancel();
		}
	}

}
