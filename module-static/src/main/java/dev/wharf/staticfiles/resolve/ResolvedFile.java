package dev.wharf.staticfiles.resolve;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.wharf.staticfiles.http.Gzip;
import dev.wharf.staticfiles.site.Site;
import org.jspecify.annotations.Nullable;

/**
 * A request path resolved to a file of a site, with every representation a client can be
 * sent: the file itself, its precompressed {@code .br} and {@code .gz} siblings, and gzip
 * made on the fly.
 *
 * <p>
 * Immutable; safe for concurrent use.
 */
public final class ResolvedFile {

	private static final int ENTRY_OVERHEAD = 1024;

	private final Site site;

	private final Representation identity;

	private final @Nullable Representation brotli;

	private final @Nullable Representation gzip;

	private final @Nullable Representation gzipOnTheFly;

	private ResolvedFile(Site site, Representation identity, @Nullable Representation brotli,
			@Nullable Representation gzip, @Nullable Representation gzipOnTheFly) {
		this.site = site;
		this.identity = identity;
		this.brotli = brotli;
		this.gzip = gzip;
		this.gzipOnTheFly = gzipOnTheFly;
	}

	/**
	 * Builds the representations of a file.
	 * @param site the site
	 * @param file the requested file
	 * @param brotli its {@code .br} sibling, or {@code null}
	 * @param gzip its {@code .gz} sibling, or {@code null}
	 * @param previous what the same path resolved to before, whose compressed bytes are
	 * reused if the file did not change; or {@code null}
	 * @return the resolved file
	 */
	static ResolvedFile create(Site site, StoredFile file, @Nullable StoredFile brotli, @Nullable StoredFile gzip,
			@Nullable ResolvedFile previous) {
		String contentType = site.contentTypes().forName(file.path().name());
		String cacheControl = site.cacheControl().forPath(file.path().relativeTo(site.root()).toString());
		boolean onTheFly = gzip == null && site.gzipsOnTheFly(contentType, file.size());
		byte[] compressed = null;
		if (onTheFly && file.bytes() != null) {
			Representation before = (previous != null) ? previous.gzipOnTheFly : null;
			compressed = (before != null && before.body() != null && before.source().sameVersion(file)) ? before.body()
					: Gzip.compress(file.bytes());
			// Not worth sending compressed if it does not shrink (already dense content).
			onTheFly = compressed.length < file.size();
		}
		boolean vary = brotli != null || gzip != null || onTheFly;
		Representation identity = new Representation(file, null, false, file.bytes(), file.size(), contentType,
				cacheControl, vary, site.headers());
		Representation br = (brotli != null) ? new Representation(brotli, "br", false, brotli.bytes(), brotli.size(),
				contentType, cacheControl, true, site.headers()) : null;
		Representation gz = (gzip != null) ? new Representation(gzip, "gzip", false, gzip.bytes(), gzip.size(),
				contentType, cacheControl, true, site.headers()) : null;
		Representation fly = onTheFly ? new Representation(file, "gzip", true, compressed,
				(compressed != null) ? compressed.length : -1, contentType, cacheControl, true, site.headers()) : null;
		return new ResolvedFile(site, identity, br, gz, fly);
	}

	/** The site. */
	public Site site() {
		return this.site;
	}

	/** The file's own bytes. */
	public Representation identity() {
		return this.identity;
	}

	/** The {@code .br} sibling, or {@code null}. */
	public @Nullable Representation brotli() {
		return this.brotli;
	}

	/** The {@code .gz} sibling, or {@code null}. */
	public @Nullable Representation gzip() {
		return this.gzip;
	}

	/** gzip made on the fly, or {@code null} when it does not apply. */
	public @Nullable Representation gzipOnTheFly() {
		return this.gzipOnTheFly;
	}

	/**
	 * Whether another resolution of the same path found exactly the same files.
	 * @param other the other resolution
	 * @return whether every stored file is the same version
	 */
	public boolean sameVersion(ResolvedFile other) {
		return this.identity.source().sameVersion(other.identity.source()) && sameVersion(this.brotli, other.brotli)
				&& sameVersion(this.gzip, other.gzip);
	}

	private static boolean sameVersion(@Nullable Representation a, @Nullable Representation b) {
		return (a == null) ? b == null : b != null && a.source().sameVersion(b.source());
	}

	/**
	 * Memory this file takes in a cache, in bytes (approximate, never below a fixed
	 * overhead).
	 */
	public int weight() {
		long bytes = ENTRY_OVERHEAD;
		for (Representation representation : representations()) {
			byte[] body = representation.body();
			bytes += (body != null) ? body.length : 0;
		}
		return (int) Math.min(Integer.MAX_VALUE, bytes);
	}

	/**
	 * The host folders whose changes may change this resolution: the folder of each local
	 * file and its ancestors up to the mount's root.
	 * @return the folders, nearest first; empty if no file is local
	 */
	public Set<Path> watchDirectories() {
		Set<Path> directories = new LinkedHashSet<>();
		for (Representation representation : representations()) {
			StoredFile source = representation.source();
			Path local = source.localFile();
			if (local == null) {
				continue;
			}
			Path folder = local.getParent();
			for (int i = 0; i < source.path().depth() && folder != null; i++) {
				directories.add(folder);
				folder = folder.getParent();
			}
		}
		return directories;
	}

	/**
	 * Whether a change reported by the operating system may affect this resolution.
	 * @param folder the folder in which something changed
	 * @param changed the entry that changed in it
	 * @return whether one of the files is in that folder (a new sibling may have
	 * appeared) or below the changed entry
	 */
	public boolean isAffectedBy(Path folder, Path changed) {
		for (Representation representation : representations()) {
			Path local = representation.source().localFile();
			if (local != null && (folder.equals(local.getParent()) || local.startsWith(changed))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Lets responses share open channels to the local files while this resolution is
	 * cached.
	 */
	public void share() {
		for (Representation representation : representations()) {
			representation.source().share();
		}
	}

	/**
	 * Closes the shared channels (once the responses using them are done). Idempotent.
	 */
	public void close() {
		for (Representation representation : representations()) {
			representation.source().close();
		}
	}

	private List<Representation> representations() {
		List<Representation> all = new ArrayList<>(4);
		all.add(this.identity);
		if (this.brotli != null) {
			all.add(this.brotli);
		}
		if (this.gzip != null) {
			all.add(this.gzip);
		}
		if (this.gzipOnTheFly != null) {
			all.add(this.gzipOnTheFly);
		}
		return all;
	}

}
