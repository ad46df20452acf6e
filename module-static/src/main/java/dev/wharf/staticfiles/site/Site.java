package dev.wharf.staticfiles.site;

import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.web.MediaTypeRegistry;
import dev.wharf.core.web.RequestTargets;
import org.jspecify.annotations.Nullable;

/**
 * One configured, checked static site: which requests it takes (host names and path
 * prefix) and how it serves them. Built by {@link Sites}.
 *
 * <p>
 * Immutable; safe for concurrent use.
 */
public final class Site {

	private static final String WELL_KNOWN = ".well-known";

	private final String name;

	private final List<String> hosts;

	private final String prefix;

	private final @Nullable String excluded;

	private final String mount;

	private final Storage storage;

	private final StoragePath root;

	private final List<String> index;

	private final boolean listing;

	private final @Nullable StoragePath spaFallback;

	private final boolean dotFiles;

	private final CacheControlRules cacheControl;

	private final MediaTypeRegistry contentTypes;

	private final boolean gzip;

	private final long gzipMinSize;

	private final boolean precompressed;

	private final Map<String, String> headers;

	Site(String name, List<String> hosts, String prefix, @Nullable String excluded, String mount, Storage storage,
			StoragePath root, List<String> index, boolean listing, @Nullable StoragePath spaFallback, boolean dotFiles,
			CacheControlRules cacheControl, MediaTypeRegistry contentTypes, boolean gzip, long gzipMinSize,
			boolean precompressed, Map<String, String> headers) {
		this.name = name;
		this.hosts = hosts;
		this.prefix = prefix;
		this.excluded = excluded;
		this.mount = mount;
		this.storage = storage;
		this.root = root;
		this.index = index;
		this.listing = listing;
		this.spaFallback = spaFallback;
		this.dotFiles = dotFiles;
		this.cacheControl = cacheControl;
		this.contentTypes = contentTypes;
		this.gzip = gzip;
		this.gzipMinSize = gzipMinSize;
		this.precompressed = precompressed;
		this.headers = headers;
	}

	/**
	 * Whether this site takes a request.
	 * @param target the raw request target
	 * @param host the {@code Host} header, or {@code null}
	 * @return whether the target's path is under the prefix (and the host is one of the
	 * site's, if any)
	 */
	public boolean matches(String target, @Nullable String host) {
		if (!this.hosts.isEmpty() && !matchesHost(host)) {
			return false;
		}
		String path = target.startsWith("/") ? target : RequestTargets.path(target);
		if (this.prefix.isEmpty()) {
			return !path.isEmpty() && (this.excluded == null || !isUnder(path, this.excluded));
		}
		return isUnder(path, this.prefix);
	}

	private static boolean isUnder(String path, String prefix) {
		if (!path.startsWith(prefix)) {
			return false;
		}
		if (path.length() == prefix.length()) {
			return true;
		}
		char next = path.charAt(prefix.length());
		return next == '/' || next == '?' || next == '#';
	}

	private boolean matchesHost(@Nullable String host) {
		if (host == null) {
			return false;
		}
		int end = host.length();
		int colon = host.lastIndexOf(':');
		if (colon >= 0 && host.indexOf(']') < colon) {
			end = colon;
		}
		for (String candidate : this.hosts) {
			if (end == candidate.length() && host.regionMatches(true, 0, candidate, 0, end)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a path inside the site names a hidden (dot) file or folder that the site
	 * does not serve.
	 * @param relative the path inside the site
	 * @return whether to answer as if it did not exist
	 */
	public boolean isHidden(StoragePath relative) {
		if (this.dotFiles) {
			return false;
		}
		List<String> segments = relative.segments();
		for (int i = 0; i < segments.size(); i++) {
			String segment = segments.get(i);
			if (segment.startsWith(".") && !(i == 0 && segment.equals(WELL_KNOWN))) {
				return true;
			}
		}
		return false;
	}

	/** A short name for logs and metrics: the hosts, if any, and the prefix. */
	public String name() {
		return this.name;
	}

	/** The host names the site is limited to; empty for any host. */
	public List<String> hosts() {
		return this.hosts;
	}

	/** The prefix without a trailing slash; empty for a site at {@code /}. */
	public String prefix() {
		return this.prefix;
	}

	/** The mount's name. */
	public String mount() {
		return this.mount;
	}

	/** The mount's storage. */
	public Storage storage() {
		return this.storage;
	}

	/**
	 * Whether the storage hands out local files, for zero-copy transfers and change
	 * notifications.
	 */
	public boolean hasLocalFiles() {
		return this.storage.capabilities().contains(Capability.LOCAL_FILE);
	}

	/** The folder inside the mount that the prefix maps to. */
	public StoragePath root() {
		return this.root;
	}

	/** Index file names, in order. */
	public List<String> index() {
		return this.index;
	}

	/** Whether folders without an index get a listing. */
	public boolean listing() {
		return this.listing;
	}

	/**
	 * The file (a full path in the mount) served for paths that do not exist, or
	 * {@code null}.
	 */
	public @Nullable StoragePath spaFallback() {
		return this.spaFallback;
	}

	/** Whether dot-files are served and listed. */
	public boolean dotFiles() {
		return this.dotFiles;
	}

	/** The {@code Cache-Control} rules. */
	public CacheControlRules cacheControl() {
		return this.cacheControl;
	}

	/** The content types. */
	public MediaTypeRegistry contentTypes() {
		return this.contentTypes;
	}

	/**
	 * Whether a file is compressed on the fly for clients that accept gzip.
	 * @param contentType its type
	 * @param size its length
	 * @return whether gzip is on, the type compressible and the file large enough
	 */
	public boolean gzipsOnTheFly(String contentType, long size) {
		return this.gzip && size >= this.gzipMinSize && MediaTypeRegistry.isCompressible(contentType);
	}

	/** Whether precompressed {@code .br}/{@code .gz} siblings are used. */
	public boolean precompressed() {
		return this.precompressed;
	}

	/** Extra headers for every file, in configuration order. */
	public Map<String, String> headers() {
		return this.headers;
	}

	@Override
	public String toString() {
		return "Site[" + this.name + " -> " + this.mount + ":" + this.root + "]";
	}

}
