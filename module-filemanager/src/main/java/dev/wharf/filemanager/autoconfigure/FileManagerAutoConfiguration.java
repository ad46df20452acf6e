package dev.wharf.filemanager.autoconfigure;

import java.util.List;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.session.ApiTokens;
import dev.wharf.core.session.Sessions;
import dev.wharf.core.state.InProcessLocks;
import dev.wharf.core.state.Locks;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.CallerResolver;
import dev.wharf.filemanager.files.ChangeHandlers;
import dev.wharf.filemanager.files.DownloadHandler;
import dev.wharf.filemanager.files.ListHandler;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.files.SaveHandler;
import dev.wharf.filemanager.http.ApiDispatcher;
import dev.wharf.filemanager.http.ApiRoute;
import dev.wharf.filemanager.http.ApiRoute.Method;
import dev.wharf.filemanager.search.SearchHandler;
import dev.wharf.filemanager.session.SessionHandlers;
import dev.wharf.filemanager.session.TokenHandlers;
import dev.wharf.filemanager.thumbnail.ThumbnailService;
import dev.wharf.filemanager.ui.UiAssets;
import dev.wharf.filemanager.ui.UiFilter;
import dev.wharf.filemanager.upload.UploadHandlers;
import dev.wharf.filemanager.zip.ZipHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} for the file
 * manager: the Filestash-compatible API under {@code /api/} (files, sessions, API tokens, thumbnails,
 * search, zip, resumable uploads) over the mounts named in {@code wharf.filemanager.mounts}. On unless
 * {@code wharf.filemanager.enabled=false}. The web UI is served at {@code /}.
 */
@AutoConfiguration(afterName = { "dev.wharf.core.autoconfigure.SecurityAutoConfiguration",
		"dev.wharf.core.autoconfigure.SessionAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "wharf.filemanager.enabled", matchIfMissing = true)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@EnableConfigurationProperties(FileManagerProperties.class)
public final class FileManagerAutoConfiguration {

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

	@Bean(destroyMethod = "close")
	ThumbnailService fileManagerThumbnails(FileManagerProperties properties) {
		FileManagerProperties.Thumbnails thumbnails = properties.thumbnails();
		// CPU-bound work: one thread per core and a short queue; past it requests get 503, not a long wait.
		return new ThumbnailService(thumbnails.size(), thumbnails.maxPixels(), thumbnails.maxFileSize().toBytes(),
				thumbnails.effectiveCacheBytes(),
				BlockingScheduler.create("wharf-thumbnail", thumbnails.effectiveThreads(), 64));
	}

	@Bean(destroyMethod = "close")
	ZipHandler fileManagerZip(MountTree tree, FileManagerProperties properties) {
		return new ZipHandler(tree, properties.maxConcurrentZips());
	}

	@Bean(destroyMethod = "close")
	UploadHandlers fileManagerUploads(MountTree tree, AuditTrail audit, FileManagerProperties properties,
			ObjectProvider<Locks> locks) {
		FileManagerProperties.Uploads uploads = properties.uploads();
		return new UploadHandlers(tree, audit, properties.maxUploadSize().toBytes(), uploads.expiry(),
				uploads.segmentSize().toBytes(), uploads.sweepInterval(), locks.getIfAvailable(InProcessLocks::new));
	}

	@Bean
	ApiDispatcher fileManagerApiDispatcher(MountTree tree, CallerResolver callers, AuditTrail audit,
			ThumbnailService thumbnails, ZipHandler zip, UploadHandlers uploads, Authenticator authenticator,
			Sessions sessions, ApiTokens tokens, FileManagerProperties properties) {
		long maxUpload = properties.maxUploadSize().toBytes();
		ChangeHandlers changes = new ChangeHandlers(tree, audit);
		FileManagerProperties.Search search = properties.search();
		return new ApiDispatcher(List.of(
				new ApiRoute("/api/files/ls", Method.of(Method.GET),
						callers.protect(new ListHandler(tree, properties.maxListEntries()), false)),
				new ApiRoute("/api/files/cat", Method.of(Method.GET, Method.HEAD),
						callers.protect(new DownloadHandler(tree, thumbnails), true)),
				new ApiRoute("/api/files/save", Method.of(Method.POST),
						callers.protect(new SaveHandler(tree, audit, maxUpload), false)),
				new ApiRoute("/api/files/mv", Method.of(Method.POST), callers.protect(changes.mv(), false)),
				new ApiRoute("/api/files/cp", Method.of(Method.POST), callers.protect(changes.cp(), false)),
				new ApiRoute("/api/files/rm", Method.of(Method.POST), callers.protect(changes.rm(), false)),
				new ApiRoute("/api/files/mkdir", Method.of(Method.POST), callers.protect(changes.mkdir(), false)),
				new ApiRoute("/api/files/touch", Method.of(Method.POST), callers.protect(changes.touch(), false)),
				new ApiRoute("/api/files/search", Method.of(Method.GET),
						callers.protect(new SearchHandler(tree, search.timeBudget(), search.maxResults()), false)),
				new ApiRoute("/api/files/zip", Method.of(Method.GET), callers.protect(zip, true)),
				new ApiRoute(UploadHandlers.ENDPOINT, Method.of(Method.POST, Method.OPTIONS),
						uploads.creation(handler -> callers.protect(handler, false))),
				new ApiRoute(UploadHandlers.ENDPOINT + "/", Method.of(Method.HEAD, Method.PATCH, Method.DELETE, Method.OPTIONS),
						uploads.uploads(handler -> callers.protect(handler, false))),
				new ApiRoute("/api/session", Method.of(Method.GET, Method.POST, Method.DELETE),
						new SessionHandlers(authenticator, sessions, callers, tree, audit).handler()),
				new ApiRoute("/api/tokens", Method.of(Method.GET, Method.POST, Method.DELETE),
						new TokenHandlers(authenticator, tokens, callers, audit).handler())));
	}

	@Bean
	UiFilter fileManagerUi() {
		return new UiFilter(UiAssets.load(FileManagerAutoConfiguration.class.getClassLoader()));
	}

}
