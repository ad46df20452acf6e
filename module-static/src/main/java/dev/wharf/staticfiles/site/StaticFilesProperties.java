package dev.wharf.staticfiles.site;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The static file server ({@code wharf.static}). Static sites are public: nobody logs in
 * to read them.
 *
 * @param enabled whether the module is on
 * @param sites the sites; none by default, so nothing is published until a site is
 * configured
 * @param cache the cache of resolved files and small files' bytes, shared by every site
 * @param maxRanges most ranges one {@code Range} header may ask for; a request asking for
 * more gets the whole file (as Apache's {@code MaxRanges} and nginx's {@code max_ranges}
 * do)
 * @param fastLane whether plain GET and HEAD requests for cached files are answered
 * directly on the connection, before Reactor Netty's request handling (the same answers,
 * with less work per request)
 */
@ConfigurationProperties(prefix = "wharf.static", ignoreUnknownFields = false)
public record StaticFilesProperties(@DefaultValue("true") boolean enabled, @DefaultValue List<SiteProperties> sites,
		@DefaultValue CacheProperties cache, @DefaultValue("16") int maxRanges,
		@DefaultValue("true") boolean fastLane) {

	public StaticFilesProperties {
		if (maxRanges < 1 || maxRanges > 1000) {
			throw new InvalidConfigurationException("wharf.static.max-ranges", Integer.toString(maxRanges),
					"must be 1 to 1000");
		}
		if (cache.maxSize().isNegative() || cache.maxFileSize().isNegative() || cache.revalidateAfter().isNegative()) {
			throw new InvalidConfigurationException("wharf.static.cache", null,
					"sizes and durations must not be negative");
		}
	}

	/**
	 * One site: a folder of a mount published under a path prefix.
	 *
	 * @param prefix the URL path the site is served under, such as {@code /static/} or
	 * {@code /} (with a trailing slash or without)
	 * @param hosts host names (from the {@code Host} header, without port) this site
	 * answers; empty for any host. A site at {@code /} with a host leaves every other
	 * host name to the rest of Wharf.
	 * @param mount the mount to serve; required
	 * @param root the folder inside the mount that the prefix maps to
	 * @param index names tried, in order, for a request that ends with {@code /}
	 * @param listing whether a folder without an index file gets an HTML listing
	 * (otherwise 404)
	 * @param spaFallback a file inside the site (such as {@code /index.html}) served,
	 * with 200, for every GET or HEAD whose path does not exist; for single-page
	 * applications that route on the client
	 * @param dotFiles whether names starting with {@code .} are served (and listed);
	 * {@code .well-known} at the site's root is always served
	 * @param cacheControl {@code Cache-Control} values by path pattern, first match wins
	 * @param contentTypes content types by file extension (without the dot), added to and
	 * overriding the built-in table
	 * @param gzip on-the-fly gzip of compressible types
	 * @param precompressed whether a {@code name.br} or {@code name.gz} beside a file is
	 * sent instead of it to clients that accept that coding
	 * @param headers extra response headers for every file of the site (for example
	 * {@code Content-Security-Policy})
	 * @param sandbox whether every file is sent with
	 * {@code Content-Security-Policy: sandbox} (added to a policy in {@code headers}), so
	 * an HTML page of the site runs no script and gets an origin of its own; unset: on
	 * for a site that shares the file manager's origin (served on the same server and
	 * port while the file manager is on, unless the site has host names to itself with
	 * prefix {@code /}), off otherwise
	 */
	public record SiteProperties(@DefaultValue("/static/") String prefix, @DefaultValue List<String> hosts,
			@Nullable String mount, @DefaultValue("/") String root, @DefaultValue("index.html") List<String> index,
			@DefaultValue("false") boolean listing, @Nullable String spaFallback,
			@DefaultValue("false") boolean dotFiles, @DefaultValue List<CacheControlRule> cacheControl,
			@DefaultValue Map<String, String> contentTypes, @DefaultValue GzipProperties gzip,
			@DefaultValue("true") boolean precompressed, @DefaultValue Map<String, String> headers,
			@Nullable Boolean sandbox) {
	}

	/**
	 * A {@code Cache-Control} value for the files whose path inside the site matches a
	 * pattern.
	 *
	 * @param pattern an Ant-style pattern of the path inside the site, starting with
	 * {@code /}: {@code *} matches within a name, {@code **} any number of folders (for
	 * example {@code /assets/**} or {@code /**}{@code /*.html})
	 * @param value the header value, such as {@code public, max-age=31536000, immutable}
	 */
	public record CacheControlRule(@Nullable String pattern, @Nullable String value) {
	}

	/**
	 * On-the-fly gzip. Applies to compressible types only (text, JavaScript, JSON, XML,
	 * SVG, WebAssembly, uncompressed fonts), never to images, video, archives or already
	 * compressed files, and not to range requests (those get the plain bytes). It costs
	 * the zero-copy transfer; precompressed siblings do not.
	 *
	 * @param enabled whether it is on
	 * @param minSize smallest file compressed
	 */
	public record GzipProperties(@DefaultValue("true") boolean enabled, @DefaultValue("1KB") DataSize minSize) {
	}

	/**
	 * The cache. It keeps, per requested path, what the storage said about the file (so a
	 * hit makes no storage call), and the bytes of small files (so a hit makes no
	 * file-system call at all).
	 *
	 * @param enabled whether anything is cached
	 * @param maxSize most memory the cache uses (heap), cached bytes plus a fixed charge
	 * per entry
	 * @param maxFileSize largest file whose bytes are kept; 0 keeps metadata only
	 * @param revalidateAfter how long an entry is trusted before the storage is asked
	 * again; files on {@code local} mounts are also dropped as soon as the operating
	 * system reports a change to them
	 */
	public record CacheProperties(@DefaultValue("true") boolean enabled, @DefaultValue("4MB") DataSize maxSize,
			@DefaultValue("64KB") DataSize maxFileSize, @DefaultValue("1s") Duration revalidateAfter) {
	}

}
