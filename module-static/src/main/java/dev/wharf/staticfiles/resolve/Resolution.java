package dev.wharf.staticfiles.resolve;

import dev.wharf.core.storage.StoragePath;

/**
 * What a request path of a site leads to.
 */
public sealed interface Resolution
		permits Resolution.Found, Resolution.Redirect, Resolution.Folder, Resolution.Missing {

	/**
	 * Nothing servable: no such file, a hidden file, or a folder without index or
	 * listing.
	 */
	Missing MISSING = new Missing();

	/** A folder asked for without its trailing slash. */
	Redirect TO_FOLDER = new Redirect();

	/**
	 * A file.
	 *
	 * @param file the file and its representations
	 */
	record Found(ResolvedFile file) implements Resolution {
	}

	/** A folder asked for without its trailing slash: redirect to the path with one. */
	final class Redirect implements Resolution {

		private Redirect() {
		}

	}

	/**
	 * A folder without an index file, on a site with listings on.
	 *
	 * @param path the folder, in the mount
	 */
	record Folder(StoragePath path) implements Resolution {
	}

	/** Nothing servable. */
	final class Missing implements Resolution {

		private Missing() {
		}

	}

}
