package dev.wharf.buildcache.autoconfigure;

import java.time.Clock;
import java.time.Duration;

import dev.wharf.buildcache.access.CacheAuthenticator;
import dev.wharf.buildcache.access.RequestQuotas;
import dev.wharf.buildcache.http.CacheFastLane;
import dev.wharf.buildcache.http.CacheRoutes;
import dev.wharf.buildcache.http.CacheRequestHandler;
import dev.wharf.buildcache.store.CacheIndex;
import dev.wharf.buildcache.store.CacheMetrics;
import dev.wharf.buildcache.store.CacheStore;
import dev.wharf.buildcache.store.HotEntries;
import dev.wharf.buildcache.store.LocalCacheIndex;
import dev.wharf.buildcache.store.RedisCacheIndex;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.state.Locks;
import dev.wharf.core.state.redis.RedisState;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.metrics.MeteredStorage;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.storage.mount.MountsHealthContributor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;
import reactor.core.publisher.Mono;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the Gradle and Maven remote build cache. On unless
 * {@code wharf.buildcache.enabled=false}.
 */
@AutoConfiguration(afterName = "dev.wharf.core.autoconfigure.SecurityAutoConfiguration")
@ConditionalOnBooleanProperty(name = "wharf.buildcache.enabled", matchIfMissing = true)
@EnableConfigurationProperties(BuildCacheProperties.class)
public final class BuildCacheAutoConfiguration {

	/** The index budget on mounts other than {@code memory} when none is configured. */
	static final DataSize DEFAULT_MAX_SIZE = DataSize.ofGigabytes(10);

	/**
	 * The most memory for copies of small entries by default, however big the heap.
	 */
	static final DataSize DEFAULT_HOT_ENTRIES_MAX_SIZE = DataSize.ofMegabytes(64);

	private static final String PREFIX = "wharf.buildcache.";

	private static final Log logger = LogFactory.getLog(BuildCacheAutoConfiguration.class);

	@Bean
	CacheMetrics buildCacheMetrics(BuildCacheProperties properties, MountRegistry mounts,
			ObjectProvider<MeterRegistry> meters) {
		Mount mount = mounts.require(PREFIX + "mount", properties.mount());
		return new CacheMetrics(meters.getIfAvailable(SimpleMeterRegistry::new), mount.name(), mount.type());
	}

	@Bean(destroyMethod = "close")
	CacheStore buildCacheStore(BuildCacheProperties properties, MountRegistry mounts, CacheMetrics metrics,
			ObjectProvider<RedisState> redis, ObjectProvider<Locks> locks) {
		Mount mount = mounts.require(PREFIX + "mount", properties.mount());
		StoragePath folder;
		try {
			folder = StoragePath.reserved(properties.folder());
		}
		catch (InvalidStoragePathException ex) {
			throw new InvalidConfigurationException(PREFIX + "folder", properties.folder(), ex.getMessage());
		}
		long maxBytes = maxBytes(properties, mount);
		if (maxBytes > 0 && properties.maxEntrySize().toBytes() > maxBytes) {
			logger.warn("wharf.buildcache.max-entry-size (" + properties.maxEntrySize().toMegabytes()
					+ " MB) is more than the cache's size budget (" + (maxBytes >> 20) + " MB)");
		}
		// With wharf.state.store: redis, every replica writing into this folder shares
		// one index.
		RedisState shared = redis.getIfAvailable();
		CacheIndex.Factory indexes = (shared != null) ? (settings, evictor) -> new RedisCacheIndex(settings, evictor,
				shared, locks.getObject(), RedisCacheIndex.USES_EVERY) : LocalCacheIndex::new;
		CacheStore store = new CacheStore(mount.name(), mount.storage(),
				new CacheStore.Settings(folder, properties.keyDigest(), properties.compression(),
						properties.maxEntrySize().toBytes(), maxBytes, properties.eviction().maxAge(),
						hotEntries(properties, mount, Runtime.getRuntime().maxMemory())),
				metrics, indexes, Clock.systemUTC());
		try {
			store.start().block(Duration.ofSeconds(30));
		}
		catch (RuntimeException ex) {
			store.close();
			throw new InvalidConfigurationException(PREFIX + "folder", properties.folder(),
					"cannot be created in mount '" + mount.name() + "': " + ex.getMessage());
		}
		return store;
	}

	/**
	 * The index budget: as configured, else 90% of a memory mount (which refuses writes
	 * when full rather than evicting) or 10 GB; none on a mount that cannot list
	 * (memcached evicts by itself).
	 */
	static long maxBytes(BuildCacheProperties properties, Mount mount) {
		DataSize configured = properties.eviction().maxSize();
		boolean listable = mount.storage().capabilities().contains(Capability.LIST);
		if (!listable) {
			if (configured != null) {
				throw new InvalidConfigurationException(PREFIX + "eviction.max-size", configured.toString(),
						"mount '" + mount.name() + "' (" + mount.type()
								+ ") cannot list its entries and evicts by itself; " + "remove this setting");
			}
			return 0;
		}
		if (configured != null) {
			return configured.toBytes();
		}
		if (unwrapped(mount.storage()) instanceof MemoryStorage memory) {
			return memory.maxBytes() / 10 * 9;
		}
		return DEFAULT_MAX_SIZE.toBytes();
	}

	/**
	 * The copies of small entries: as configured, else on a local folder 1/64 of the heap
	 * and at most 64 MB (the p96 profile's 24 MB heap keeps 384 KB of them). None by
	 * default elsewhere: a memory mount holds its entries in memory already, and on
	 * memcached or sftp a copy would also answer while the server is down or after it
	 * evicted the entry (for up to the revalidation time), which their operators may not
	 * expect; setting the size turns copies on there.
	 */
	static HotEntries.Settings hotEntries(BuildCacheProperties properties, Mount mount, long maxHeap) {
		BuildCacheProperties.HotEntries hot = properties.hotEntries();
		long maxSize;
		if (hot.maxSize() != null) {
			maxSize = hot.maxSize().toBytes();
		}
		else if (!mount.storage().capabilities().contains(Capability.LOCAL_FILE)) {
			maxSize = 0;
		}
		else {
			maxSize = Math.min(DEFAULT_HOT_ENTRIES_MAX_SIZE.toBytes(), maxHeap / 64);
		}
		return new HotEntries.Settings(maxSize,
				Math.min(hot.maxEntrySize().toBytes(), properties.maxEntrySize().toBytes()), hot.revalidateAfter());
	}

	private static Storage unwrapped(Storage storage) {
		return (storage instanceof MeteredStorage metered) ? metered.delegate() : storage;
	}

	@Bean
	CacheAuthenticator buildCacheAuthenticator(BuildCacheProperties properties, Authenticator authenticator) {
		BuildCacheProperties.ClientCertificates certificates = properties.clientCertificates();
		return new CacheAuthenticator(authenticator, certificates.enabled() ? certificates.userAttribute() : null);
	}

	@Bean
	RequestQuotas buildCacheQuotas(BuildCacheProperties properties) {
		BuildCacheProperties.Quota quota = properties.quota();
		return new RequestQuotas(quota.perUser().requests(), quota.perUser().period(), quota.perAddress().requests(),
				quota.perAddress().period(), Clock.systemUTC());
	}

	@Bean
	CacheRequestHandler buildCacheRequestHandler(BuildCacheProperties properties, CacheStore store,
			CacheAuthenticator authenticator, RequestQuotas quotas, CacheMetrics metrics, AuditLog audit) {
		return new CacheRequestHandler(properties.mount(), store, authenticator, properties.anonymous(), quotas,
				properties.maxEntrySize().toBytes(), properties.realm(), properties.clientCertificates().enabled(),
				metrics, audit);
	}

	@Bean
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(NettyRouteProvider.class)
	CacheRoutes buildCacheRoutes(BuildCacheProperties properties, CacheRequestHandler handler) {
		return new CacheRoutes(properties.normalizedBasePath(), handler);
	}

	@Bean
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(NettyRouteProvider.class)
	@ConditionalOnBooleanProperty(name = "wharf.buildcache.fast-lane", matchIfMissing = true)
	CacheFastLane buildCacheFastLane(BuildCacheProperties properties, CacheRequestHandler handler,
			Environment environment) {
		return new CacheFastLane(properties.normalizedBasePath(), handler,
				Binder.get(environment).bind("server.netty.idle-timeout", Duration.class).orElse(null));
	}

	/** {@code /actuator/health/buildcache}, when Actuator's health support is present. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ReactiveHealthIndicator.class)
	static class BuildCacheHealthConfiguration {

		@Bean
		ReactiveHealthIndicator buildcacheHealthIndicator(CacheStore store, BuildCacheProperties properties) {
			return () -> store.checkHealth()
				.timeout(Duration.ofSeconds(3))
				.then(Mono.fromCallable(() -> Health.up().withDetail("mount", properties.mount()).build()))
				.onErrorResume(error -> Mono.just(Health.down()
					.withDetail("mount", properties.mount())
					.withDetail("error", MountsHealthContributor.errorDetail(error))
					.build()));
		}

	}

}
