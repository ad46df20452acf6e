package dev.wharf.staticfiles.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.web.KeepAliveReadResumer;
import dev.wharf.staticfiles.site.SharedOrigin;
import dev.wharf.staticfiles.site.TestProperties;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The real static routes on a real Reactor Netty server on 127.0.0.1 and a free port,
 * configured with the same property names as {@code application.yaml}
 * ({@code wharf.static.*}), with the fast lane, and with a stand-in for the rest of Wharf
 * behind them that answers {@value #SLOW} slowly and anything else with 404 and the body
 * {@value #FALLBACK}.
 */
final class StaticTestServer implements AutoCloseable {

	/** What the stand-in for the rest of Wharf answers. */
	static final String FALLBACK = "not a static request";

	/** A path of the stand-in that answers "slow" after 300 ms, on another thread. */
	static final String SLOW = "/slow";

	private final StaticFileServer files;

	private final DisposableServer server;

	private StaticTestServer(StaticFileServer files, DisposableServer server) {
		this.files = files;
		this.server = server;
	}

	/**
	 * Starts a server.
	 * @param mounts the mounts
	 * @param properties "name=value" pairs, names relative to {@code wharf.static}
	 */
	static StaticTestServer start(MountRegistry mounts, String... properties) {
		return start(mounts, SharedOrigin.NONE, properties);
	}

	/**
	 * Starts a server beside what shares its origin.
	 * @param mounts the mounts
	 * @param origin what shares the sites' origin
	 * @param properties "name=value" pairs, names relative to {@code wharf.static}
	 */
	static StaticTestServer start(MountRegistry mounts, SharedOrigin origin, String... properties) {
		StaticFileServer files = new StaticFileServer(TestProperties.bind(properties), mounts, "/actuator", false, null,
				origin);
		DisposableServer server = files
			.install(KeepAliveReadResumer.install(HttpServer.create().host("127.0.0.1").port(0)))
			.route(routes -> files.apply(routes)
				.get(SLOW,
						(request, response) -> response
							.sendString(Mono.delay(Duration.ofMillis(300)).thenReturn("slow")))
				.route(request -> true, (request, response) -> response.status(404).sendString(Mono.just(FALLBACK))))
			.bindNow(Duration.ofSeconds(30));
		return new StaticTestServer(files, server);
	}

	/**
	 * Writes {@link SiteFixture} to a local mount named {@code data} on a folder and
	 * starts a server with one site, {@code /static/} on its {@code /site} folder.
	 * @param folder the mount's root
	 * @param properties more properties (relative to {@code wharf.static})
	 */
	static StaticTestServer local(Path folder, String... properties) {
		return local(folder, SharedOrigin.NONE, properties);
	}

	/**
	 * As {@link #local(Path, String...)}, beside what shares the site's origin.
	 * @param folder the mount's root
	 * @param origin what shares the site's origin
	 * @param properties more properties (relative to {@code wharf.static})
	 */
	static StaticTestServer local(Path folder, SharedOrigin origin, String... properties) {
		Mount data = TestMounts.local("data", folder);
		SiteFixture.write(data.storage());
		List<String> all = new ArrayList<>(List.of("sites[0].mount=data", "sites[0].root=/site"));
		all.addAll(List.of(properties));
		return start(MountRegistry.of(data), origin, all.toArray(String[]::new));
	}

	int port() {
		return this.server.port();
	}

	StaticFileServer files() {
		return this.files;
	}

	@Override
	public void close() {
		this.server.disposeNow(Duration.ofSeconds(30));
		this.files.close();
	}

}
