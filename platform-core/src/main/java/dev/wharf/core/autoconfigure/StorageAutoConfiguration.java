package dev.wharf.core.autoconfigure;

import java.time.Duration;

import dev.wharf.core.storage.local.LocalStorageProvider;
import dev.wharf.core.storage.memcached.MemcachedStorageProvider;
import dev.wharf.core.storage.memory.MemoryStorageProvider;
import dev.wharf.core.storage.metrics.MeteredStorage;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.storage.mount.MountsHealthContributor;
import dev.wharf.core.storage.mount.StorageProvider;
import dev.wharf.core.storage.s3.S3StorageProvider;
import dev.wharf.core.storage.sftp.SftpStorageProvider;
import io.micrometer.core.instrument.MeterRegistry;
import net.schmizz.sshj.SSHClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the storage layer: the built-in backend providers ({@code sftp}
 * only where sshj is on the class path, {@code s3} only where the AWS SDK is) and the
 * {@link MountRegistry} built from {@code wharf.storage.mounts}.
 */
@AutoConfiguration
public final class StorageAutoConfiguration {

	@Bean
	LocalStorageProvider localStorageProvider() {
		return new LocalStorageProvider();
	}

	@Bean
	MemoryStorageProvider memoryStorageProvider() {
		return new MemoryStorageProvider();
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	MountRegistry mountRegistry(Environment environment, ObjectProvider<StorageProvider> providers,
			ObjectProvider<MeterRegistry> meterRegistry) {
		MeterRegistry meters = meterRegistry.getIfAvailable();
		return MountRegistry.create(Binder.get(environment), providers.orderedStream().toList(),
				(meters != null) ? (mount, type, storage) -> new MeteredStorage(storage, meters, mount, type)
						: MountRegistry.Decorator.NONE);
	}

	/**
	 * The {@code memcached} backend, unless spymemcached was left out of the application.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "net.spy.memcached.MemcachedClient")
	static class MemcachedConfiguration {

		@Bean
		MemcachedStorageProvider memcachedStorageProvider() {
			return new MemcachedStorageProvider();
		}

	}

	/** The {@code s3} backend, unless the AWS SDK was left out of the application. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "software.amazon.awssdk.services.s3.S3AsyncClient",
			"software.amazon.awssdk.http.crt.AwsCrtAsyncHttpClient" })
	static class S3Configuration {

		@Bean
		S3StorageProvider s3StorageProvider() {
			return new S3StorageProvider();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(SSHClient.class)
	static class SftpConfiguration {

		@Bean
		SftpStorageProvider sftpStorageProvider() {
			return new SftpStorageProvider();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(CompositeReactiveHealthContributor.class)
	static class MountHealthConfiguration {

		@Bean
		CompositeReactiveHealthContributor mountsHealthContributor(MountRegistry mounts) {
			return MountsHealthContributor.of(mounts, Duration.ofSeconds(3));
		}

	}

}
