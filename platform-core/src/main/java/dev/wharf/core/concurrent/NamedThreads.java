package dev.wharf.core.concurrent;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories and pools whose threads say what they are for in a thread dump
 * ({@code prefix-N}).
 */
public final class NamedThreads {

	/** How long an idle pool thread waits for work before it ends. */
	private static final long IDLE_SECONDS = 60;

	private NamedThreads() {
	}

	/**
	 * A factory of daemon threads named {@code prefix-1}, {@code prefix-2}, …
	 * @param prefix the name's start
	 * @return the factory; thread-safe
	 */
	public static ThreadFactory daemon(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return runnable -> {
			Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * A pool of at most {@code threads} daemon threads, made when work arrives and ended
	 * after a minute idle, with a bounded queue.
	 * @param prefix the threads' name prefix
	 * @param threads the most threads
	 * @param queueCapacity the most tasks waiting
	 * @param whenFull what happens to a task that finds the queue full
	 * @return the pool
	 */
	public static ThreadPoolExecutor pool(String prefix, int threads, int queueCapacity,
			RejectedExecutionHandler whenFull) {
		ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(queueCapacity), daemon(prefix), whenFull);
		pool.allowCoreThreadTimeOut(true);
		return pool;
	}

}
