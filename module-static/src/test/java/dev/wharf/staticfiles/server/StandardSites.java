package dev.wharf.staticfiles.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;

/**
 * The sites most tests use, over {@link SiteFixture}'s files: {@code /static/} (local
 * mount, with cache-control rules, a custom content type, an extra header),
 * {@code /listed/} (listings on), {@code /app/} (SPA fallback) and {@code /mem/} (the
 * same files on a memory mount).
 */
final class StandardSites {

	private StandardSites() {
	}

	/**
	 * Writes the fixture to a local mount on {@code folder} and to a memory mount, and
	 * starts a server.
	 * @param folder the local mount's root
	 * @param extra more properties (relative to {@code wharf.static})
	 */
	static StaticTestServer start(Path folder, String... extra) {
		Mount data = TestMounts.local("data", folder);
		Mount mem = TestMounts.memory("mem");
		SiteFixture.write(data.storage());
		SiteFixture.write(mem.storage());
		List<String> properties = new ArrayList<>(List.of("sites[0].prefix=/static/", "sites[0].mount=data",
				"sites[0].root=/site", "sites[0].cache-control[0].pattern=/assets/**",
				"sites[0].cache-control[0].value=public, max-age=31536000, immutable",
				"sites[0].cache-control[1].pattern=/**/*.html", "sites[0].cache-control[1].value=no-cache",
				"sites[0].content-types.wharfdoc=application/x-wharf-doc", "sites[0].headers.X-Frame-Options=DENY",
				"sites[0].gzip.min-size=512", "sites[1].prefix=/listed", "sites[1].mount=data", "sites[1].root=/site",
				"sites[1].listing=true", "sites[2].prefix=/app/", "sites[2].mount=data", "sites[2].root=/site/spa",
				"sites[2].spa-fallback=/index.html", "sites[3].prefix=/mem/", "sites[3].mount=mem",
				"sites[3].root=/site", "sites[3].gzip.min-size=512", "cache.max-file-size=1KB"));
		properties.addAll(List.of(extra));
		return StaticTestServer.start(MountRegistry.of(data, mem), properties.toArray(String[]::new));
	}

}
