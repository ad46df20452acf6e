package dev.wharf.filemanager.zip;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.wharf.filemanager.http.ApiException;
import org.springframework.http.HttpStatus;

/**
 * The zips being written: at most a number at once, and at most a share of them for any
 * one user, so that one user (a read-only one too) cannot take every slot and keep
 * everyone else at 503. Thread-safe.
 */
final class ZipSlots {

	private static final Duration RETRY_AFTER = Duration.ofSeconds(5);

	private final int total;

	private final int perUser;

	private final Map<String, Integer> byUser = new HashMap<>();

	private int taken;

	/**
	 * @param total the most zips at once
	 * @param perUser the most zips at once for one user
	 */
	ZipSlots(int total, int perUser) {
		this.total = total;
		this.perUser = perUser;
	}

	/**
	 * Takes a slot.
	 * @param user who asks
	 * @return the slot, to be released when the zip ends however it ends
	 * @throws ApiException 429 if the user has all the slots one user may have, 503 if
	 * every slot is taken
	 */
	synchronized Slot take(String user) {
		int mine = this.byUser.getOrDefault(user, 0);
		if (mine >= this.perUser) {
			throw new ApiException(HttpStatus.TOO_MANY_REQUESTS,
					"You are downloading " + mine + " zips already, the most one user may; try again once one is done",
					RETRY_AFTER);
		}
		if (this.taken >= this.total) {
			throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Too many zips are being made, try again",
					RETRY_AFTER);
		}
		this.taken++;
		this.byUser.put(user, mine + 1);
		return new Slot(user);
	}

	private synchronized void release(String user) {
		this.taken--;
		this.byUser.computeIfPresent(user, (name, count) -> (count > 1) ? count - 1 : null);
	}

	/** One slot taken; {@link #release} gives it back, and is called once. */
	final class Slot {

		private final String user;

		private Slot(String user) {
			this.user = user;
		}

		void release() {
			ZipSlots.this.release(this.user);
		}

	}

}
