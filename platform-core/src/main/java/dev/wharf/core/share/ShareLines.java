package dev.wharf.core.share;

import java.time.Instant;

import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;

/**
 * A share as one line of text, the same in the state file and in Redis: tab-separated id,
 * creator, mount, path, rights, created, expires (ms since 1970, 0 for never), maximum
 * downloads (0 for no limit), downloads and the password hash ({@code -} for none). No
 * field can hold a tab or a line break: names and paths refuse control characters, and
 * hashes and ids have none. Stateless.
 */
public final class ShareLines {

	private static final int FIELDS = 10;

	private ShareLines() {
	}

	/**
	 * Writes a share.
	 * @param share the share
	 * @return its line
	 */
	public static String format(Share share) {
		Instant expires = share.expires();
		String hash = share.passwordHash();
		return share.id() + '\t' + share.creator() + '\t' + share.mount() + '\t' + share.path() + '\t'
				+ share.rights().configName() + '\t' + share.created().toEpochMilli() + '\t'
				+ ((expires != null) ? expires.toEpochMilli() : 0) + '\t' + share.maxDownloads() + '\t'
				+ share.downloads() + '\t' + ((hash != null) ? hash : "-");
	}

	/**
	 * Reads a share.
	 * @param line its line
	 * @return the share, or {@code null} if the line is not one
	 */
	public static @Nullable Share parse(String line) {
		String[] fields = line.split("\t", FIELDS);
		if (fields.length != FIELDS) {
			return null;
		}
		try {
			ShareRights rights = ShareRights.fromConfigName(fields[4]).orElse(null);
			if (rights == null || !Share.isWellFormedId(fields[0])) {
				return null;
			}
			long expires = Long.parseLong(fields[6]);
			return new Share(fields[0], fields[1], fields[2], StoragePath.parse(fields[3]), rights,
					fields[9].equals("-") ? null : fields[9], (expires == 0) ? null : Instant.ofEpochMilli(expires),
					Integer.parseInt(fields[7]), Integer.parseInt(fields[8]),
					Instant.ofEpochMilli(Long.parseLong(fields[5])));
		}
		catch (IllegalArgumentException | InvalidStoragePathException ex) {
			return null;
		}
	}

}
