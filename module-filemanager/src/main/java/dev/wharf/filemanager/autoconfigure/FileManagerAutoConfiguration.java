package dev.wharf.filemanager.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.CompositeUserDirectory;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.security.OidcProperties;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.session.ApiTokens;
import dev.wharf.core.session.Sessions;
import dev.wharf.core.share.ShareStore;
import dev.wharf.core.state.InProcessLocks;
import dev.wharf.core.state.Locks;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.CallerResolver;
import dev.wharf.filemanager.auth.RecentSignIn;
import dev.wharf.filemanager.files.ChangeHandlers;
import dev.wharf.filemanager.files.DownloadHandler;
import dev.wharf.filemanager.files.ListHandler;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.files.SaveHandler;
import dev.wharf.filemanager.http.ApiDispatcher;
import dev.wharf.filemanager.http.ApiRoute;
import dev.wharf.filemanager.http.ApiRoute.Method;
import dev.wharf.filemanager.http.MalformedTargetRoute;
import dev.wharf.filemanager.oidc.OidcClient;
import dev.wharf.filemanager.oidc.OidcSignIn;
import dev.wharf.filemanager.search.SearchHandler;
import dev.wharf.filemanager.session.SessionHandlers;
import dev.wharf.filemanager.session.SignInMethods;
import dev.wharf.filemanager.session.TokenHandlers;
import dev.wharf.filemanager.share.ShareHandlers;
import dev.wharf.filemanager.share.SharePage;
import dev.wharf.filemanager.share.ShareVisitors;
import dev.wharf.filemanager.share.ShareVisitors.Use;
import dev.wharf.filemanager.thumbnail.ImageThumbnailer;
import dev.wharf.filemanager.thumbnail.ThumbnailService;
import dev.wharf.filemanager.thumbnail.ThumbnailSlots;
import dev.wharf.filemanager.thumbnail.ThumbnailStore;
import dev.wharf.filemanager.ui.UiAssets;
import dev.wharf.filemanager.ui.UiFilter;
import dev.wharf.filemanager.upload.UploadHandlers;
import dev.wharf.filemanager.zip.ZipHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.ChannelOption;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.netty.http.client.HttpClient;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the file manager: the Filestash-compatible API under
 * {@code /api/} (files, sessions, API tokens, thumbnails, search, zip, resumable uploads,
 * share links) over the mounts named in {@code wharf.filemanager.mounts}. On unless
 * {@code wharf.filemanager.enabled=false}. The web UI is served at {@code /}, share
 * links' page at {@code /s/<id>}. A {@link Clock} bean, if there is one, is the time
 * share links expire by (tests); otherwise the system's.
 */
@AutoConfiguration(afterName = { "dev.wharf.core.autoconfigure.SecurityAutoConfiguration",
		"dev.wharf.core.autoconfigure.SessionAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "wharf.filemanager.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@EnableConfigurationProperties({ FileManagerProperties.class, OidcProperties.class })
public final class FileManagerAutoConfiguration {

	/** How long a thumbnail kept in its mount lives after it was made. */
	private static final Duration THUMBNAIL_EXPIRY = Duration.ofDays(30);

	/**
	 * One of the 256 folders of kept thumbnails is swept this often: each once in about
	 * 21 hours.
	 */
	private static final Duration THUMBNAIL_SWEEP_INTERVAL = Duration.ofMinutes(5);

	@Bean
	MountTree fileManagerMountTree(MountRegistry mounts, FileManagerProperties properties) {
		return MountTree.of(mounts, properties.mounts());
	}

	@Bean
	CallerResolver fileManagerCallerResolver(Sessions sessions, ApiTokens tokens, UserDirectory users) {
		return new CallerResolver(sessions, tokens, users);
	}

	@Bean
	AuditTrail fileManagerAuditTrail(AuditLog log) {
		return new AuditTrail(log);
	}

	@Bean
	RecentSignIn fileManagerRecentSignIn(OidcProperties oidc, ObjectProvider<ExternalUsers> users) {
		return oidc.enabled() ? new RecentSignIn(users.getObject(), oidc.tokenWindow(), oidc.name(), Clock.systemUTC())
				: RecentSignIn.NEVER;
	}

	@Bean
	ShareVisitors fileManagerShareVisitors(ShareStore store, UserDirectory users, MountTree tree,
			CallerResolver callers, AuditTrail audit, ObjectProvider<Clock> clock) {
		return new ShareVisitors(store, users, tree, callers, audit, clock.getIfAvailable(Clock::systemUTC),
				ShareVisitors.WATCH);
	}

	@Bean(destroyMethod = "close")
	ShareHandlers fileManagerShares(ShareStore store, ShareVisitors visitors, MountTree tree, CallerResolver callers,
			LoginThrottle throttle, AuditTrail audit, ObjectProvider<Clock> clock) {
		return new ShareHandlers(store, visitors, tree, callers, throttle, audit,
				clock.getIfAvailable(Clock::systemUTC));
	}

	/**
	 * Sign-in through an OpenID Connect provider, when {@code wharf.security.oidc.issuer}
	 * is set.
	 */
	private static OidcSignIn oidcSignIn(OidcProperties oidc, ExternalUsers users, UserDirectory directory,
			Sessions sessions, AuditTrail audit) {
		int timeout = (int) Math.min(Integer.MAX_VALUE, oidc.timeout().toMillis());
		WebClient web = WebClient.builder()
			.clientConnector(new ReactorClientHttpConnector(HttpClient.create()
				.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeout)
				.responseTimeout(oidc.timeout())))
			.build();
		// A provider must never take over a configured account: such names are refused.
		Predicate<String> configured = (directory instanceof CompositeUserDirectory composite)
				? name -> composite.configured().find(name).isPresent() : name -> directory.find(name).isPresent();
		return new OidcSignIn(oidc, new OidcClient(oidc, web, Clock.systemUTC()), users, configured, sessions, audit);
	}

	@Bean
	ImageThumbnailer fileManagerThumbnailer(FileManagerProperties properties) {
		FileManagerProperties.Thumbnails thumbnails = properties.thumbnails();
		return new ImageThumbnailer(thumbnails.size(), thumbnails.maxPixels(), thumbnails.effectiveMaxDecodedBytes(),
				thumbnails.nativeJpeg());
	}

	@Bean(destroyMethod = "close")
	ThumbnailService fileManagerThumbnails(ImageThumbnailer thumbnailer, MountTree tree,
			FileManagerProperties properties, ObjectProvider<MeterRegistry> meters) {
		FileManagerProperties.Thumbnails thumbnails = properties.thumbnails();
		ThumbnailStore store = thumbnails.persistentCache() ? new ThumbnailStore(thumbnails.size(), tree.mounts(),
				THUMBNAIL_EXPIRY, THUMBNAIL_SWEEP_INTERVAL, Clock.systemUTC()) : null;
		// CPU-bound work: one thread per core, each with a slot; the others wait for a
		// slot, so the pool's queue never fills (it only holds a task handed over while
		// a thread finishes the last).
		int threads = thumbnails.effectiveThreads();
		return new ThumbnailService(thumbnailer, thumbnails.maxFileSize().toBytes(), thumbnails.effectiveCacheBytes(),
				store, BlockingScheduler.create("wharf-thumbnail", threads, threads),
				new ThumbnailSlots(threads, thumbnails.maxWaiting(), thumbnails.maxWait()),
				meters.getIfAvailable(SimpleMeterRegistry::new));
	}

	@Bean(destroyMethod = "close")
	ZipHandler fileManagerZip(MountTree tree, FileManagerProperties properties) {
		return new ZipHandler(tree, properties.maxConcurrentZips(), properties.effectiveZipsPerUser());
	}

	@Bean(destroyMethod = "close")
	UploadHandlers fileManagerUploads(MountTree tree, AuditTrail audit, FileManagerProperties properties,
			ObjectProvider<Locks> locks, ThumbnailService thumbnails) {
		FileManagerProperties.Uploads uploads = properties.uploads();
		return new UploadHandlers(tree, audit, properties.maxUploadSize().toBytes(), uploads.expiry(),
				uploads.segmentSize().toBytes(), uploads.sweepInterval(), locks.getIfAvailable(InProcessLocks::new),
				thumbnails);
	}

	@Bean
	ApiDispatcher fileManagerApiDispatcher(MountTree tree, CallerResolver callers, AuditTrail audit,
			ThumbnailService thumbnails, ZipHandler zip, UploadHandlers uploads, Authenticator authenticator,
			Sessions sessions, ApiTokens tokens, FileManagerProperties properties, RecentSignIn recentSignIn,
			OidcProperties oidc, ObjectProvider<ExternalUsers> externalUsers, UserDirectory directory,
			ShareVisitors visitors, ShareHandlers shares) {
		long maxUpload = properties.maxUploadSize().toBytes();
		ChangeHandlers changes = new ChangeHandlers(tree, audit);
		FileManagerProperties.Search search = properties.search();
		// Each file endpoint that a share link's visitors may use says what it does, for
		// the link's rights.
		List<ApiRoute> routes = new ArrayList<>(List.of(
				new ApiRoute("/api/files/ls", Method.of(Method.GET),
						visitors.protect(new ListHandler(tree, properties.maxListEntries()), false, Use.LIST)),
				new ApiRoute("/api/files/cat", Method.of(Method.GET, Method.HEAD),
						visitors.protect(new DownloadHandler(tree, thumbnails), true, Use.DOWNLOAD)),
				new ApiRoute("/api/files/save", Method.of(Method.POST),
						visitors.protect(new SaveHandler(tree, audit, maxUpload, thumbnails), false, Use.UPLOAD)),
				new ApiRoute("/api/files/mv", Method.of(Method.POST),
						visitors.protect(changes.mv(), false, Use.CHANGE)),
				new ApiRoute("/api/files/cp", Method.of(Method.POST),
						visitors.protect(changes.cp(), false, Use.CHANGE)),
				new ApiRoute("/api/files/rm", Method.of(Method.POST),
						visitors.protect(changes.rm(), false, Use.CHANGE)),
				new ApiRoute("/api/files/mkdir", Method.of(Method.POST),
						visitors.protect(changes.mkdir(), false, Use.CHANGE)),
				new ApiRoute("/api/files/touch", Method.of(Method.POST),
						visitors.protect(changes.touch(), false, Use.CHANGE)),
				new ApiRoute("/api/files/search", Method.of(Method.GET),
						callers.protect(new SearchHandler(tree, search.timeBudget(), search.maxResults()), false)),
				new ApiRoute("/api/files/zip", Method.of(Method.GET), visitors.protect(zip, true, Use.DOWNLOAD)),
				new ApiRoute(UploadHandlers.ENDPOINT, Method.of(Method.POST, Method.OPTIONS),
						uploads.creation(handler -> callers.protect(handler, false))),
				new ApiRoute(UploadHandlers.ENDPOINT + "/",
						Method.of(Method.HEAD, Method.PATCH, Method.DELETE, Method.OPTIONS),
						uploads.uploads(handler -> callers.protect(handler, false))),
				new ApiRoute("/api/session", Method.of(Method.GET, Method.POST, Method.DELETE),
						new SessionHandlers(authenticator, sessions, callers, tree, audit, recentSignIn).handler()),
				new ApiRoute("/api/session/methods", Method.of(Method.GET),
						new SignInMethods(oidc.enabled() ? oidc.name() : null, OidcSignIn.START.substring(1))
							.handler()),
				new ApiRoute("/api/tokens", Method.of(Method.GET, Method.POST, Method.DELETE),
						new TokenHandlers(authenticator, tokens, callers, audit, recentSignIn).handler()),
				new ApiRoute(ShareHandlers.COLLECTION, Method.of(Method.GET, Method.POST), shares.collection()),
				new ApiRoute(ShareHandlers.ITEM, Method.of(Method.GET, Method.POST, Method.DELETE), shares.item())));
		if (oidc.enabled()) {
			OidcSignIn signIn = oidcSignIn(oidc, externalUsers.getObject(), directory, sessions, audit);
			routes.add(new ApiRoute(OidcSignIn.START, Method.of(Method.GET), signIn.start()));
			routes.add(new ApiRoute(OidcSignIn.CALLBACK, Method.of(Method.GET), signIn.callback()));
		}
		return new ApiDispatcher(routes);
	}

	@Bean
	@ConditionalOnClass(NettyRouteProvider.class)
	MalformedTargetRoute fileManagerMalformedTargets(Environment environment) {
		return new MalformedTargetRoute(environment.getProperty("spring.webflux.base-path", ""));
	}

	@Bean
	UiAssets fileManagerUiAssets() {
		return UiAssets.load(FileManagerAutoConfiguration.class.getClassLoader());
	}

	@Bean
	UiFilter fileManagerUi(UiAssets assets) {
		return new UiFilter(assets);
	}

	@Bean
	SharePage fileManagerSharePage(ShareVisitors visitors, UiAssets assets) {
		return new SharePage(visitors, assets);
	}

}
