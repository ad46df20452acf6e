package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.util.List;

import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.web.RouteOrder;
import dev.wharf.staticfiles.cache.FileCache;
import dev.wharf.staticfiles.cache.LocalChangeWatcher;
import dev.wharf.staticfiles.resolve.FileResolver;
import dev.wharf.staticfiles.resolve.SharedChannel;
import dev.wharf.staticfiles.site.SharedOrigin;
import dev.wharf.staticfiles.site.Site;
import dev.wharf.staticfiles.site.Sites;
import dev.wharf.staticfiles.site.StaticFilesProperties;
import dev.wharf.staticfiles.site.StaticFilesProperties.CacheProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.core.Ordered;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRoutes;

/**
 * The static file server: the configured sites, the file cache (with its change watcher)
 * and the Reactor Netty routes that answer requests under a site's prefix. The routes sit
 * in front of Spring WebFlux: a static request is answered directly on Reactor Netty,
 * without WebFlux's exchange, filter chain and handler mapping (which would cost several
 * times nginx's work for a small file); every other request goes on to WebFlux unchanged.
 * Sites are tried most specific first, and after other modules' own endpoints
 * ({@link RouteOrder#SITES}): a site at {@code /} leaves the build cache's base path to
 * the build cache.
 *
 * <p>
 * Because of this, static requests do not pass through WebFlux filters or Spring's
 * request metrics; static sites are public and have their own counter
 * ({@code wharf.static.requests}).
 *
 * <p>
 * Thread-safe. {@link #close} stops the change watcher and empties the cache.
 */
public final class StaticFileServer implements NettyRouteProvider, Ordered, AutoCloseable {

	private static final Log logger = LogFactory.getLog(StaticFileServer.class);

	/** Most host folders watched for changes to cached local files. */
	private static final int MAX_WATCHED_FOLDERS = 4096;

	private final List<Site> sites;

	private final FileCache cache;

	private final @Nullable LocalChangeWatcher watcher;

	private final StaticHandler handler;

	private final @Nullable FastLane fastLane;

	/**
	 * Builds the server from its configuration.
	 * @param properties {@code wharf.static}
	 * @param mounts the mounts the sites serve
	 * @param excludedFromRoot a path prefix that a site at {@code /} leaves to the rest
	 * of Wharf (the actuator's), or {@code null}
	 * @param serverCompression whether the HTTP server compresses responses
	 * ({@code server.compression}); static responses opt out, having their own codings
	 * @param meters where to count responses, or {@code null}
	 * @param origin what shares the sites' origin on this server
	 * @throws dev.wharf.core.config.InvalidConfigurationException if a site is
	 * misconfigured
	 */
	public StaticFileServer(StaticFilesProperties properties, MountRegistry mounts, @Nullable String excludedFromRoot,
			boolean serverCompression, @Nullable MeterRegistry meters, SharedOrigin origin) {
		this.sites = Sites.create(properties, mounts, excludedFromRoot, origin);
		CacheProperties cache = properties.cache();
		long maxWeight = cache.enabled() ? cache.maxSize().toBytes() : 0;
		// A single file never takes more than a quarter of the cache.
		long maxBytesSize = (maxWeight > 0) ? Math.min(cache.maxFileSize().toBytes(), maxWeight / 4) : -1;
		this.cache = new FileCache(new FileResolver(maxBytesSize), maxWeight, cache.revalidateAfter());
		this.watcher = (maxWeight > 0 && this.sites.stream().anyMatch(Site::hasLocalFiles)) ? watcher(this.cache, cache)
				: null;
		StaticMetrics metrics = new StaticMetrics(meters);
		this.handler = new StaticHandler(this.cache, new Responder(properties.maxRanges(), metrics), serverCompression);
		this.fastLane = (properties.fastLane() && maxWeight > 0 && !this.sites.isEmpty())
				? new FastLane(this.sites, this.cache, metrics) : null;
		if (meters != null) {
			Gauge.builder("wharf.static.cache.entries", this.cache, FileCache::size)
				.description("Request paths whose files the static cache holds")
				.register(meters);
			Gauge.builder("wharf.static.open.files", SharedChannel::openCount)
				.description("Local files the static cache keeps open for its responses")
				.register(meters);
		}
		for (Site site : this.sites) {
			logger.info("Static site " + site.name() + " serves mount '" + site.mount() + "' " + site.root()
					+ " to everyone (no login)");
		}
	}

	private static @Nullable LocalChangeWatcher watcher(FileCache files, CacheProperties cache) {
		try {
			LocalChangeWatcher watcher = new LocalChangeWatcher(files, MAX_WATCHED_FOLDERS);
			files.useWatcher(watcher);
			return watcher;
		}
		catch (IOException | UnsupportedOperationException ex) {
			logger.warn("No file change notifications (" + ex + "); cached static files are revalidated every "
					+ cache.revalidateAfter().toMillis() + " ms only");
			return null;
		}
	}

	/** The sites, most specific first. */
	public List<Site> sites() {
		return this.sites;
	}

	/** The file cache. */
	public FileCache cache() {
		return this.cache;
	}

	/**
	 * Puts the fast lane on every HTTP/1.1 connection of a server, between the HTTP codec
	 * and Reactor Netty (see {@link FastLane}); a server without it still answers every
	 * static request through {@link #apply its routes}.
	 * @param server the server
	 * @return the server with the fast lane, or unchanged if it is off
	 */
	public HttpServer install(HttpServer server) {
		FastLane lane = this.fastLane;
		if (lane == null) {
			return server;
		}
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			ChannelPipeline pipeline = channel.pipeline();
			if (pipeline.get(NettyPipeline.HttpTrafficHandler) != null && pipeline.get(FastLaneHandler.NAME) == null) {
				pipeline.addBefore(NettyPipeline.HttpTrafficHandler, FastLaneHandler.NAME, new FastLaneHandler(lane));
			}
		});
	}

	/** How many requests the fast lane answered, for tests. */
	long fastLaneAnswers() {
		return (this.fastLane != null) ? this.fastLane.answered() : 0;
	}

	@Override
	public int getOrder() {
		return RouteOrder.SITES;
	}

	@Override
	public HttpServerRoutes apply(HttpServerRoutes routes) {
		HttpServerRoutes result = routes;
		for (Site site : this.sites) {
			result = result.route(
					request -> site.matches(request.uri(),
							site.hosts().isEmpty() ? null : request.requestHeaders().get(HttpHeaderNames.HOST)),
					(request, response) -> this.handler.handle(site, request, response));
		}
		return result;
	}

	@Override
	public void close() {
		if (this.watcher != null) {
			this.watcher.close();
		}
		this.cache.close();
	}

}
