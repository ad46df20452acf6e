package dev.wharf.staticfiles.site;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.web.MediaTypeRegistry;
import dev.wharf.staticfiles.site.StaticFilesProperties.SiteProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Builds the configured sites, checking every value so that a mistake stops start-up with
 * the property named, and orders them so that the most specific site takes a request:
 * sites with host names before sites for any host, then longer prefixes before shorter
 * ones.
 */
public final class Sites {

	/** Where {@code wharf.static.sites} live. */
	public static final String PROPERTY = "wharf.static.sites";

	private static final String CONTENT_SECURITY_POLICY = "Content-Security-Policy";

	private static final Log logger = LogFactory.getLog(Sites.class);

	/**
	 * Characters a prefix may hold: those a client sends unencoded, so the raw path can
	 * be compared.
	 */
	private static final Pattern PREFIX = Pattern.compile("/|(/[A-Za-z0-9._~!$&'()*+,;=:@-]+)+/?");

	private static final Pattern HOST = Pattern.compile("[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?|\\[[0-9a-f:.]+\\]");

	/** Headers the server itself sets for every file; a site cannot replace them. */
	private static final Set<String> MANAGED_HEADERS = Set.of("content-length", "content-type", "content-range",
			"content-encoding", "transfer-encoding", "connection", "keep-alive", "etag", "last-modified", "date",
			"accept-ranges", "vary", "cache-control", "upgrade", "trailer", "te", "location");

	private Sites() {
	}

	/**
	 * Builds the sites.
	 * @param properties {@code wharf.static}
	 * @param mounts the mounts sites refer to
	 * @param excludedFromRoot a path prefix that sites at {@code /} leave to the rest of
	 * the server (the actuator's base path), or {@code null}
	 * @param origin what shares the sites' origin, for the default of
	 * {@link StaticFilesProperties.SiteProperties#sandbox()} and a warning about sites
	 * that users other than admins can put pages on
	 * @return the sites, most specific first
	 * @throws InvalidConfigurationException naming the property of the first bad value
	 */
	public static List<Site> create(StaticFilesProperties properties, MountRegistry mounts,
			@Nullable String excludedFromRoot, SharedOrigin origin) {
		List<Site> sites = new ArrayList<>();
		for (int i = 0; i < properties.sites().size(); i++) {
			sites.add(create(PROPERTY + "[" + i + "]", properties.sites().get(i), mounts, excludedFromRoot, origin));
		}
		for (int i = 0; i < sites.size(); i++) {
			for (int j = 0; j < i; j++) {
				Site a = sites.get(j);
				Site b = sites.get(i);
				if (a.prefix().equals(b.prefix())
						&& sameHosts(properties.sites().get(j).hosts(), properties.sites().get(i).hosts())) {
					throw new InvalidConfigurationException(PROPERTY + "[" + i + "].prefix",
							properties.sites().get(i).prefix(),
							"site " + j + " already serves this prefix for these hosts");
				}
			}
		}
		sites.sort(Comparator.comparing((Site site) -> site.hosts().isEmpty())
			.thenComparing(site -> -site.prefix().length()));
		return List.copyOf(sites);
	}

	private static boolean sameHosts(List<String> a, List<String> b) {
		if (a.isEmpty() || b.isEmpty()) {
			return a.isEmpty() && b.isEmpty();
		}
		for (String host : a) {
			for (String other : b) {
				if (host.equalsIgnoreCase(other)) {
					return true;
				}
			}
		}
		return false;
	}

	private static Site create(String property, SiteProperties site, MountRegistry mounts,
			@Nullable String excludedFromRoot, SharedOrigin origin) {
		String prefix = prefix(property + ".prefix", site.prefix());
		List<String> hosts = hosts(property + ".hosts", site.hosts());
		if (site.mount() == null || site.mount().isBlank()) {
			throw new InvalidConfigurationException(property + ".mount", null,
					"every site needs a mount; configured mounts: "
							+ String.join(", ", mounts.all().stream().map(Mount::name).toList()));
		}
		Mount mount = mounts.require(property + ".mount", site.mount());
		if (mount.storage().needsUserCredentials()) {
			throw new InvalidConfigurationException(property + ".mount", site.mount(),
					"this mount logs in as each user, but static sites are public (nobody logs in)");
		}
		StoragePath root = path(property + ".root", site.root());
		List<String> index = new ArrayList<>();
		for (String name : site.index()) {
			if (!StoragePath.isValidName(name)) {
				throw new InvalidConfigurationException(property + ".index", name,
						"an index is a file name, without '/'");
			}
			index.add(name);
		}
		StoragePath spaFallback = null;
		if (site.spaFallback() != null && !site.spaFallback().isBlank()) {
			if (!site.spaFallback().startsWith("/")) {
				throw new InvalidConfigurationException(property + ".spa-fallback", site.spaFallback(),
						"a path inside the site, starting with '/', such as /index.html");
			}
			StoragePath relative = path(property + ".spa-fallback", site.spaFallback());
			if (relative.isRoot()) {
				throw new InvalidConfigurationException(property + ".spa-fallback", site.spaFallback(),
						"must name a file");
			}
			spaFallback = root.resolve(relative);
		}
		if (site.gzip().minSize().isNegative()) {
			throw new InvalidConfigurationException(property + ".gzip.min-size", site.gzip().minSize().toString(),
					"must not be negative");
		}
		String name = (hosts.isEmpty() ? "" : String.join(",", hosts)) + (prefix.isEmpty() ? "/" : prefix);
		// A site at / of its own host names is an origin of its own: the file manager is
		// not reachable there.
		boolean sharesOrigin = origin.fileManager() && !(prefix.isEmpty() && !hosts.isEmpty());
		boolean sandbox = (site.sandbox() != null) ? site.sandbox() : sharesOrigin;
		Map<String, String> headers = headers(property + ".headers", site.headers());
		if (sandbox) {
			headers = sandboxed(headers);
		}
		List<String> writers = origin.nonAdminWriters().getOrDefault(mount.name(), List.of());
		if (sharesOrigin && !writers.isEmpty()) {
			warnOfWriters(property, name, mount.name(), writers, sandbox);
		}
		return new Site(name, hosts, prefix, prefix.isEmpty() ? normalisedExclusion(excludedFromRoot) : null,
				mount.name(), mount.storage(), root, List.copyOf(index), site.listing(), spaFallback, site.dotFiles(),
				new CacheControlRules(site.cacheControl(), property + ".cache-control"),
				MediaTypeRegistry.withOverrides(site.contentTypes(), property + ".content-types"),
				site.gzip().enabled(), site.gzip().minSize().toBytes(), site.precompressed(), headers);
	}

	private static void warnOfWriters(String property, String site, String mount, List<String> writers,
			boolean sandbox) {
		String consequence = sandbox
				? "its files are sent with 'Content-Security-Policy: sandbox', so a page they put there runs no script "
						+ "in this origin"
				: "with " + property
						+ ".sandbox=false a page they put there runs scripts with the file manager session "
						+ "of whoever opens it";
		logger.warn("Static site " + site + " shares the file manager's origin and publishes mount '" + mount
				+ "', which users other than admins can write (" + String.join(", ", writers.stream().sorted().toList())
				+ "): " + consequence + ". Give the site host names of its own (prefix /), or publish a folder only "
				+ "admins can write.");
	}

	/**
	 * The headers with the {@code sandbox} directive in the site's
	 * {@code Content-Security-Policy}.
	 */
	private static Map<String, String> sandboxed(Map<String, String> headers) {
		String name = headers.keySet()
			.stream()
			.filter(CONTENT_SECURITY_POLICY::equalsIgnoreCase)
			.findFirst()
			.orElse(CONTENT_SECURITY_POLICY);
		String policy = headers.get(name);
		if (policy != null) {
			for (String directive : policy.split(";")) {
				if (directive.trim().toLowerCase(Locale.ROOT).matches("sandbox(\\s.*)?")) {
					return headers;
				}
			}
		}
		Map<String, String> with = new LinkedHashMap<>(headers);
		with.put(name, (policy == null) ? "sandbox" : policy.replaceFirst(";\\s*$", "") + "; sandbox");
		return Collections.unmodifiableMap(with);
	}

	private static String prefix(String property, String prefix) {
		if (!PREFIX.matcher(prefix).matches()) {
			throw new InvalidConfigurationException(property, prefix,
					"a path such as /static/ or /, of letters, digits and - . _ ~ ! $ & ' ( ) * + , ; = : @");
		}
		path(property, prefix);
		return prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
	}

	private static List<String> hosts(String property, List<String> hosts) {
		List<String> checked = new ArrayList<>(hosts.size());
		for (String host : hosts) {
			String lower = host.trim().toLowerCase(Locale.ROOT);
			if (!HOST.matcher(lower).matches()) {
				throw new InvalidConfigurationException(property, host,
						"a host name (without port), such as www.example.com");
			}
			checked.add(lower);
		}
		return List.copyOf(checked);
	}

	private static StoragePath path(String property, String value) {
		try {
			return StoragePath.parse(value);
		}
		catch (InvalidStoragePathException ex) {
			throw new InvalidConfigurationException(property, value, ex.getMessage());
		}
	}

	private static Map<String, String> headers(String property, Map<String, String> headers) {
		Map<String, String> checked = new LinkedHashMap<>();
		headers.forEach((name, value) -> {
			if (!HeaderValues.isToken(name)) {
				throw new InvalidConfigurationException(property, name, "not a valid header name");
			}
			if (MANAGED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
				throw new InvalidConfigurationException(property, name,
						"set by the server itself (use cache-control rules for Cache-Control)");
			}
			if (value == null || !HeaderValues.isValid(value)) {
				throw new InvalidConfigurationException(property + "." + name, value,
						"a header value of visible ASCII characters");
			}
			checked.put(name, value.trim());
		});
		return Collections.unmodifiableMap(checked);
	}

	private static @Nullable String normalisedExclusion(@Nullable String path) {
		if (path == null || path.isEmpty() || path.equals("/")) {
			return null;
		}
		String withSlash = path.startsWith("/") ? path : "/" + path;
		return withSlash.endsWith("/") ? withSlash.substring(0, withSlash.length() - 1) : withSlash;
	}

}
