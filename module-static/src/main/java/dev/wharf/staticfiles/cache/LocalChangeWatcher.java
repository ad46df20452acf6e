package dev.wharf.staticfiles.cache;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Watches host folders (inotify on Linux, through {@link WatchService}) and reports every
 * change in them, so cached files of {@code local} mounts are dropped within milliseconds
 * of a change instead of at the next revalidation. Bounded: past a number of folders, new
 * ones are not watched (their files are then only revalidated on time).
 *
 * <p>
 * Thread-safe. One daemon thread, {@code wharf-static-watcher}, waits for events and
 * calls the listener; {@link #close} stops it.
 */
public final class LocalChangeWatcher implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LocalChangeWatcher.class);

	private final WatchService service;

	private final Listener listener;

	private final int maxFolders;

	private final Map<Path, WatchKey> folders = new ConcurrentHashMap<>();

	private final AtomicLong sequence = new AtomicLong();

	private final Thread thread;

	private volatile boolean closed;

	/**
	 * Starts watching nothing yet.
	 * @param listener told of every change
	 * @param maxFolders most folders watched at once
	 * @throws IOException if the platform has no watch service
	 */
	public LocalChangeWatcher(Listener listener, int maxFolders) throws IOException {
		this.service = FileSystems.getDefault().newWatchService();
		this.listener = listener;
		this.maxFolders = maxFolders;
		this.thread = new Thread(this::run, "wharf-static-watcher");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * A counter that moves whenever a folder starts being watched and before every
	 * reported change. A caller that read it before looking at files and finds it
	 * unchanged afterwards knows that no change reported so far can concern what it saw,
	 * and that later changes will be reported.
	 * @return the current value
	 */
	public long sequence() {
		return this.sequence.get();
	}

	/**
	 * Watches folders (those already watched stay watched).
	 * @param directories host folders
	 * @return whether every folder is now watched
	 */
	public boolean watch(Collection<Path> directories) {
		boolean all = true;
		for (Path directory : directories) {
			if (this.folders.containsKey(directory)) {
				continue;
			}
			if (this.closed || this.folders.size() >= this.maxFolders) {
				all = false;
				continue;
			}
			try {
				WatchKey key = directory.register(this.service, StandardWatchEventKinds.ENTRY_CREATE,
						StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY);
				this.folders.put(directory, key);
				this.sequence.incrementAndGet();
			}
			catch (IOException | ClosedWatchServiceException | UnsupportedOperationException ex) {
				logger.debug("Cannot watch " + directory + ": " + ex);
				all = false;
			}
		}
		return all;
	}

	/** How many folders are watched. */
	public int watchedFolders() {
		return this.folders.size();
	}

	private void run() {
		while (!this.closed) {
			WatchKey key;
			try {
				key = this.service.take();
			}
			catch (InterruptedException | ClosedWatchServiceException ex) {
				return;
			}
			Path folder = (Path) key.watchable();
			List<Path> changed = new ArrayList<>();
			boolean overflow = false;
			for (WatchEvent<?> event : key.pollEvents()) {
				if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
					overflow = true;
				}
				else {
					changed.add(folder.resolve((Path) event.context()));
				}
			}
			boolean valid = key.reset();
			if (!valid) {
				// The folder itself is gone or replaced: everything below it may have
				// changed.
				this.folders.remove(folder, key);
				changed.add(folder);
			}
			this.sequence.incrementAndGet();
			try {
				if (overflow) {
					this.listener.overflowed();
				}
				else if (!changed.isEmpty()) {
					this.listener.changed(folder, changed);
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Handling a change in " + folder + " failed", ex);
			}
		}
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.service.close();
		}
		catch (IOException ex) {
			logger.debug("Closing the watch service failed: " + ex);
		}
		this.thread.interrupt();
	}

	/** Told about changes, on the watcher's thread. */
	public interface Listener {

		/**
		 * Entries changed (created, modified, deleted or renamed) in a folder.
		 * @param folder the folder
		 * @param entries the changed entries (the folder itself if it went away)
		 */
		void changed(Path folder, List<Path> entries);

		/** Events were lost; anything may have changed. */
		void overflowed();

	}

}
