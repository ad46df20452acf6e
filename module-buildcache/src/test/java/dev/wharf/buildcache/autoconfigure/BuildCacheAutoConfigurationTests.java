package dev.wharf.buildcache.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;

import dev.wharf.buildcache.access.AnonymousAccess;
import dev.wharf.buildcache.http.CacheFastLane;
import dev.wharf.buildcache.http.CacheRoutes;
import dev.wharf.buildcache.store.CacheStore;
import dev.wharf.buildcache.store.HotEntries;
import dev.wharf.core.autoconfigure.SecurityAutoConfiguration;
import dev.wharf.core.autoconfigure.StorageAutoConfiguration;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.mount.MountRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BuildCacheAutoConfiguration}.
 */
class BuildCacheAutoConfigurationTests {

	@TempDir
	Path temp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class, SecurityAutoConfiguration.class,
					BuildCacheAutoConfiguration.class))
			.withPropertyValues("wharf.state-dir=" + this.temp.resolve("state"),
					"wharf.storage.mounts.data.type=memory", "wharf.storage.mounts.data.max-size=10MB");
	}

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		runner().run(context -> {
			assertThat(context).hasSingleBean(CacheStore.class);
			BuildCacheProperties properties = context.getBean(BuildCacheProperties.class);
			assertThat(properties.normalizedBasePath()).isEqualTo("/cache");
			assertThat(properties.anonymous()).isEqualTo(AnonymousAccess.NONE);
			assertThat(properties.maxEntrySize().toMegabytes()).isEqualTo(100);
		});
		runner().withPropertyValues("wharf.buildcache.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(CacheStore.class));
	}

	@Test
	void theFastLaneIsOnInAWebServerUnlessTurnedOff() {
		ReactiveWebApplicationContextRunner web = new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class, SecurityAutoConfiguration.class,
					BuildCacheAutoConfiguration.class))
			.withPropertyValues("wharf.state-dir=" + this.temp.resolve("state"),
					"wharf.storage.mounts.data.type=memory", "wharf.storage.mounts.data.max-size=10MB");
		web.run(context -> {
			assertThat(context).hasSingleBean(CacheRoutes.class);
			assertThat(context).hasSingleBean(CacheFastLane.class);
		});
		web.withPropertyValues("wharf.buildcache.fast-lane=false").run(context -> {
			assertThat(context).hasSingleBean(CacheRoutes.class);
			assertThat(context).doesNotHaveBean(CacheFastLane.class);
		});
	}

	@Test
	void aMemoryMountIsBoundedBelowItsOwnLimit() {
		runner().run(context -> {
			var mount = context.getBean(MountRegistry.class).get("data");
			long budget = BuildCacheAutoConfiguration.maxBytes(context.getBean(BuildCacheProperties.class), mount);
			assertThat(budget).isEqualTo(10L * 1024 * 1024 / 10 * 9);
		});
		runner().withPropertyValues("wharf.buildcache.eviction.max-size=2MB", "wharf.buildcache.anonymous=read-write")
			.run(context -> {
				BuildCacheProperties properties = context.getBean(BuildCacheProperties.class);
				assertThat(properties.anonymous()).isEqualTo(AnonymousAccess.READ_WRITE);
				assertThat(BuildCacheAutoConfiguration.maxBytes(properties,
						context.getBean(MountRegistry.class).get("data")))
					.isEqualTo(2L * 1024 * 1024);
			});
	}

	@Test
	void copiesOfEntriesTakeAShareOfTheHeapOnALocalMountOnly() {
		runner().run(context -> {
			var mount = context.getBean(MountRegistry.class).get("data");
			BuildCacheProperties properties = context.getBean(BuildCacheProperties.class);
			assertThat(BuildCacheAutoConfiguration.hotEntries(properties, mount, 1L << 30).maxBytes()).isZero();
		});
		runner()
			.withPropertyValues("wharf.storage.mounts.shared.type=memcached",
					"wharf.storage.mounts.shared.servers[0]=127.0.0.1:1",
					"wharf.storage.mounts.shared.connect-timeout=100ms", "wharf.buildcache.mount=shared")
			.run(context -> {
				var mount = context.getBean(MountRegistry.class).get("shared");
				BuildCacheProperties properties = context.getBean(BuildCacheProperties.class);
				assertThat(BuildCacheAutoConfiguration.hotEntries(properties, mount, 1L << 30).maxBytes()).isZero();
			});
		runner()
			.withPropertyValues("wharf.storage.mounts.disk.type=local", "wharf.storage.mounts.disk.root=" + this.temp,
					"wharf.buildcache.mount=disk")
			.run(context -> {
				var mount = context.getBean(MountRegistry.class).get("disk");
				BuildCacheProperties properties = context.getBean(BuildCacheProperties.class);
				// The p96 profile's heap, and a large one.
				HotEntries.Settings small = BuildCacheAutoConfiguration.hotEntries(properties, mount, 24L << 20);
				assertThat(small.maxBytes()).isEqualTo((24L << 20) / 64);
				assertThat(small.maxEntrySize()).isEqualTo(64 * 1024);
				assertThat(small.revalidateAfter()).isEqualTo(Duration.ofSeconds(1));
				assertThat(BuildCacheAutoConfiguration.hotEntries(properties, mount, 64L << 30).maxBytes())
					.isEqualTo(64L << 20);
			});
		runner().withPropertyValues("wharf.buildcache.hot-entries.max-size=3MB",
				"wharf.buildcache.hot-entries.max-entry-size=8KB", "wharf.buildcache.hot-entries.revalidate-after=0s")
			.run(context -> {
				var mount = context.getBean(MountRegistry.class).get("data");
				HotEntries.Settings settings = BuildCacheAutoConfiguration
					.hotEntries(context.getBean(BuildCacheProperties.class), mount, 1L << 30);
				assertThat(settings).isEqualTo(new HotEntries.Settings(3L << 20, 8 * 1024, Duration.ZERO));
			});
	}

	@Test
	void badSettingsStopStartUpNamingTheProperty() {
		assertFailure("wharf.buildcache.base-path", "wharf.buildcache.base-path=cache");
		assertFailure("wharf.buildcache.base-path", "wharf.buildcache.base-path=/a/../b");
		assertFailure("wharf.buildcache.mount", "wharf.buildcache.mount=nowhere");
		assertFailure("wharf.buildcache.max-entry-size", "wharf.buildcache.max-entry-size=0B");
		assertFailure("wharf.buildcache.realm", "wharf.buildcache.realm=say \"hi\"");
		assertFailure("wharf.buildcache.folder", "wharf.buildcache.folder=../outside");
		assertFailure("wharf.buildcache.quota.per-user.requests", "wharf.buildcache.quota.per-user.requests=-1");
		assertFailure("wharf.buildcache.quota.per-address.period", "wharf.buildcache.quota.per-address.period=0s");
		assertFailure("wharf.buildcache.eviction.max-age", "wharf.buildcache.eviction.max-age=-1d");
		assertFailure("wharf.buildcache.hot-entries.max-size", "wharf.buildcache.hot-entries.max-size=-1B");
		assertFailure("wharf.buildcache.hot-entries.max-entry-size", "wharf.buildcache.hot-entries.max-entry-size=0B");
		assertFailure("wharf.buildcache.hot-entries.revalidate-after",
				"wharf.buildcache.hot-entries.revalidate-after=-1s");
		assertFailure("wharf.buildcache.client-certificates.user-attribute",
				"wharf.buildcache.client-certificates.user-attribute=C N");
	}

	@Test
	void aMemcachedMountEvictsByItselfSoASizeBudgetIsRefused() {
		runner()
			.withPropertyValues("wharf.storage.mounts.shared.type=memcached",
					"wharf.storage.mounts.shared.servers[0]=127.0.0.1:1",
					"wharf.storage.mounts.shared.connect-timeout=100ms", "wharf.buildcache.mount=shared")
			.run(context -> assertThat(context.getBean(CacheStore.class).isIndexed()).isFalse());
		assertFailure("wharf.buildcache.eviction.max-size", "wharf.storage.mounts.shared.type=memcached",
				"wharf.storage.mounts.shared.servers[0]=127.0.0.1:1",
				"wharf.storage.mounts.shared.connect-timeout=100ms", "wharf.buildcache.mount=shared",
				"wharf.buildcache.eviction.max-size=1GB");
	}

	private void assertFailure(String property, String... values) {
		runner().withPropertyValues(values).run(context -> {
			assertThat(context).hasFailed();
			Throwable cause = context.getStartupFailure();
			while (cause != null && !(cause instanceof InvalidConfigurationException)) {
				cause = cause.getCause();
			}
			assertThat(cause).as(String.join(", ", values))
				.isInstanceOfSatisfying(InvalidConfigurationException.class,
						invalid -> assertThat(invalid.property()).isEqualTo(property));
		});
	}

}
