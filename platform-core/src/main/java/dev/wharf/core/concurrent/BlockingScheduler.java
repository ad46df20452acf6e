package dev.wharf.core.concurrent;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A Reactor {@link Scheduler} for blocking clients (file system, sshj, bcrypt): a bounded
 * pool of named threads and a bounded queue, where each worker runs its tasks one at a
 * time, in order, as Reactor's bounded-elastic workers do.
 *
 * <p>
 * Unlike Reactor's own executor-backed schedulers, cancelling a task never interrupts its
 * thread. A blocking call returns on its own (every client here has a time-out), and the
 * cancelled pipeline drops its result. Interrupting is worse than waiting:
 * <ul>
 * <li>Reactor may cancel a task that has already delivered its value while the same task
 * still runs the code downstream of it. A late {@code subscribeOn} future disposal does
 * this, as reactor/reactor-core#962 describes. The interrupt then hits unrelated work on
 * that thread. The static file server saw {@code ClosedByInterruptException} from a
 * {@code FileChannel} it had just opened for a response.</li>
 * <li>An interrupted {@code FileChannel} is closed for everyone who shares it.</li>
 * <li>An interrupted sshj call tears down the SSH connection that a pool shares.</li>
 * </ul>
 *
 * <p>
 * Time-based tasks wait on Reactor's parallel scheduler and then run here. They are meant
 * for housekeeping such as idle-connection checks. Thread-safe.
 */
public final class BlockingScheduler implements Scheduler {

	private final ThreadPoolExecutor pool;

	private final Scheduler tasks;

	private BlockingScheduler(ThreadPoolExecutor pool) {
		this.pool = pool;
		// Not the pool itself: Reactor would recognise an ExecutorService and cancel with
		// interrupts.
		Executor execute = pool::execute;
		this.tasks = Schedulers.fromExecutor(execute, true);
	}

	/**
	 * Creates a scheduler; its threads start when work arrives and end after a minute
	 * idle.
	 * @param name the threads' name prefix, such as {@code wharf-local-data}
	 * @param threads the most threads
	 * @param queueCapacity the most tasks waiting; past that, scheduling fails with
	 * {@link java.util.concurrent.RejectedExecutionException} (which Reactor turns into
	 * an error signal)
	 * @return the scheduler
	 */
	public static BlockingScheduler create(String name, int threads, int queueCapacity) {
		return new BlockingScheduler(
				NamedThreads.pool(name, threads, queueCapacity, new ThreadPoolExecutor.AbortPolicy()));
	}

	@Override
	public Disposable schedule(Runnable task) {
		return this.tasks.schedule(task);
	}

	@Override
	public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
		return Schedulers.parallel().schedule(() -> this.tasks.schedule(task), delay, unit);
	}

	@Override
	public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
		return Schedulers.parallel().schedulePeriodically(() -> this.tasks.schedule(task), initialDelay, period, unit);
	}

	@Override
	public Worker createWorker() {
		return new DelayingWorker(this.tasks.createWorker());
	}

	@Override
	public void dispose() {
		this.tasks.dispose();
		// Running tasks finish (without an interrupt); queued ones are dropped.
		this.pool.shutdown();
		this.pool.getQueue().clear();
	}

	@Override
	public boolean isDisposed() {
		return this.pool.isShutdown();
	}

	/**
	 * A worker whose delayed tasks wait on the parallel scheduler, then join the worker's
	 * order.
	 */
	private static final class DelayingWorker implements Worker {

		private final Worker worker;

		DelayingWorker(Worker worker) {
			this.worker = worker;
		}

		@Override
		public Disposable schedule(Runnable task) {
			return this.worker.schedule(task);
		}

		@Override
		public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
			return Schedulers.parallel().schedule(() -> this.worker.schedule(task), delay, unit);
		}

		@Override
		public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
			return Schedulers.parallel()
				.schedulePeriodically(() -> this.worker.schedule(task), initialDelay, period, unit);
		}

		@Override
		public void dispose() {
			this.worker.dispose();
		}

		@Override
		public boolean isDisposed() {
			return this.worker.isDisposed();
		}

	}

}
