package dev.wharf.staticfiles.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.Role;
import dev.wharf.core.security.User;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.web.MediaTypeRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link Sites} and {@link Site}: configuration checks, ordering, request
 * matching, and the sandbox of sites that share the file manager's origin.
 */
@ExtendWith(OutputCaptureExtension.class)
class SitesTests {

	static final MemoryStorage MEMORY = new MemoryStorage("data", 1024);

	static final MountRegistry MOUNTS = MountRegistry.of(new Mount("data", "memory", MEMORY),
			new Mount("personal", "memory", new PassthroughStorage()));

	static List<Site> sites(String... properties) {
		return Sites.create(TestProperties.bind(properties), MOUNTS, "/actuator", SharedOrigin.NONE);
	}

	@Test
	void defaults() {
		Site site = sites("sites[0].mount=data").get(0);
		assertThat(site.prefix()).isEqualTo("/static");
		assertThat(site.hosts()).isEmpty();
		assertThat(site.root()).isEqualTo(StoragePath.root());
		assertThat(site.index()).containsExactly("index.html");
		assertThat(site.listing()).isFalse();
		assertThat(site.dotFiles()).isFalse();
		assertThat(site.spaFallback()).isNull();
		assertThat(site.precompressed()).isTrue();
		assertThat(site.gzipsOnTheFly("text/html", 1024)).isTrue();
		assertThat(site.gzipsOnTheFly("text/html", 1023)).isFalse();
		assertThat(site.gzipsOnTheFly("image/png", 100_000)).isFalse();
		assertThat(site.storage()).isSameAs(MEMORY);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "sites[0].prefix=static|sites[0].prefix", "sites[0].prefix=/a b|sites[0].prefix",
					"sites[0].prefix=/a//b|sites[0].prefix", "sites[0].prefix=/../x|sites[0].prefix",
					"sites[0].prefix=/%2e%2e|sites[0].prefix", "sites[0].prefix=/caf\u00e9|sites[0].prefix",
					"sites[0].mount=nope|sites[0].mount", "sites[0].mount=personal|sites[0].mount",
					"sites[0].root=/../etc|sites[0].root", "sites[0].index[0]=a/index.html|sites[0].index",
					"sites[0].spa-fallback=index.html|sites[0].spa-fallback",
					"sites[0].spa-fallback=/|sites[0].spa-fallback",
					"sites[0].hosts[0]=www.example.com:8080|sites[0].hosts", "sites[0].hosts[0]=-bad-|sites[0].hosts",
					"sites[0].cache-control[0].pattern=*.js|sites[0].cache-control[0].pattern",
					"sites[0].cache-control[0].pattern=/**|sites[0].cache-control[0].value",
					"sites[0].content-types.x.y=text/plain|sites[0].content-types",
					"sites[0].content-types.md=not a type|sites[0].content-types.md",
					"sites[0].headers.Content-Type=text/plain|sites[0].headers",
					"sites[0].headers.[X Bad]=1|sites[0].headers", "max-ranges=0|max-ranges" })
	void badValuesAreRefusedNamingTheProperty(String property, String named) {
		String mount = property.startsWith("sites[0].mount") ? property : "sites[0].mount=data";
		assertThatThrownBy(() -> sites(mount, property)).satisfies(ex -> {
			// Thrown by the check itself, or by the properties' constructor during
			// binding.
			Throwable cause = ex;
			while (!(cause instanceof InvalidConfigurationException) && cause.getCause() != null) {
				cause = cause.getCause();
			}
			assertThat(cause).isInstanceOf(InvalidConfigurationException.class);
			assertThat(((InvalidConfigurationException) cause).property()).isEqualTo("wharf.static." + named);
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '"',
			value = { "false|sites[0].prefix=/static/|", "true|sites[0].prefix=/static/|sandbox",
					"true|sites[0].prefix=/|sandbox", "true|sites[0].hosts[0]=www.example.test|sandbox",
					"true|sites[0].prefix=/,sites[0].hosts[0]=www.example.test|", "true|sites[0].sandbox=false|",
					"false|sites[0].sandbox=true|sandbox",
					"true|sites[0].headers.Content-Security-Policy=default-src 'self'|default-src 'self'; sandbox",
					"true|sites[0].headers.content-security-policy=img-src *;|img-src *; sandbox",
					"true|sites[0].headers.Content-Security-Policy=sandbox allow-scripts|sandbox allow-scripts",
					"false|sites[0].headers.Content-Security-Policy=default-src 'none'|default-src 'none'" })
	void sitesSharingTheFileManagersOriginAreSandboxedUnlessTheyOwnTheirHost(boolean fileManager, String properties,
			String policy) {
		List<String> all = new ArrayList<>(List.of("sites[0].mount=data"));
		all.addAll(List.of(properties.split(",")));
		Site site = Sites
			.create(TestProperties.bind(all.toArray(String[]::new)), MOUNTS, "/actuator",
					new SharedOrigin(fileManager, Map.of()))
			.get(0);
		String sent = site.headers()
			.entrySet()
			.stream()
			.filter(header -> header.getKey().equalsIgnoreCase("Content-Security-Policy"))
			.map(Map.Entry::getValue)
			.findFirst()
			.orElse(null);
		assertThat(sent).isEqualTo(policy);
	}

	@Test
	void aWarningNamesTheUsersOtherThanAdminsWhoCanPutPagesInASharedOrigin(CapturedOutput output) {
		User bob = new User("bob", Set.of(Role.USER), Map.of("data", MountAccess.READ_WRITE));
		User carol = new User("carol", Set.of(Role.USER), Map.of("data", MountAccess.READ_ONLY));
		User admin = new User("root", Set.of(Role.ADMIN), Map.of());
		SharedOrigin origin = SharedOrigin.of(true, List.of(bob, carol, admin));
		assertThat(origin.nonAdminWriters()).isEqualTo(Map.of("data", List.of("bob")));
		Sites.create(TestProperties.bind("sites[0].mount=data", "sites[1].mount=data", "sites[1].prefix=/open",
				"sites[1].sandbox=false", "sites[2].mount=data", "sites[2].prefix=/",
				"sites[2].hosts[0]=www.example.test"), MOUNTS, "/actuator", origin);
		assertThat(output).contains("WARN")
			.contains("Static site /static shares the file manager's origin and publishes mount 'data', which users "
					+ "other than admins can write (bob): its files are sent with 'Content-Security-Policy: sandbox'")
			.contains("Static site /open shares the file manager's origin")
			.contains("with wharf.static.sites[1].sandbox=false a page they put there runs scripts")
			.doesNotContain("Static site www.example.test/ shares")
			.doesNotContain("carol")
			.doesNotContain("root");
	}

	@Test
	void noWarningWithoutAFileManagerOrWithoutWriters(CapturedOutput output) {
		User bob = new User("bob", Set.of(Role.USER), Map.of("data", MountAccess.READ_WRITE));
		Sites.create(TestProperties.bind("sites[0].mount=data"), MOUNTS, "/actuator",
				SharedOrigin.of(false, List.of(bob)));
		Sites.create(TestProperties.bind("sites[0].mount=data"), MOUNTS, "/actuator", SharedOrigin.of(true, List.of()));
		assertThat(output).doesNotContain("shares the file manager's origin");
	}

	@Test
	void aMissingMountIsRefused() {
		assertThatThrownBy(() -> sites("sites[0].prefix=/x")).isInstanceOf(InvalidConfigurationException.class)
			.hasMessageContaining("wharf.static.sites[0].mount");
	}

	@Test
	void twoSitesCannotShareAPrefixAndHost() {
		assertThatThrownBy(() -> sites("sites[0].mount=data", "sites[1].mount=data", "sites[1].prefix=/static"))
			.hasMessageContaining("wharf.static.sites[1].prefix");
		assertThatThrownBy(() -> sites("sites[0].mount=data", "sites[0].hosts[0]=a.test", "sites[0].hosts[1]=b.test",
				"sites[1].mount=data", "sites[1].hosts[0]=B.test"))
			.hasMessageContaining("wharf.static.sites[1].prefix");
		assertThat(sites("sites[0].mount=data", "sites[0].hosts[0]=a.test", "sites[1].mount=data")).hasSize(2);
	}

	@Test
	void sitesAreOrderedMostSpecificFirst() {
		List<Site> sites = sites("sites[0].mount=data", "sites[0].prefix=/", "sites[1].mount=data",
				"sites[1].prefix=/docs/api", "sites[2].mount=data", "sites[2].prefix=/docs", "sites[3].mount=data",
				"sites[3].prefix=/", "sites[3].hosts[0]=www.example.test");
		assertThat(sites).extracting(Site::name).containsExactly("www.example.test/", "/docs/api", "/docs", "/");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "/static|true", "/static/|true", "/static/a/b?x|true", "/static?x|true", "/static#f|true",
					"/staticx|false", "/stati|false", "/|false", "/STATIC/a|false", "http://h/static/a|true",
					"http://h/other|false", "*|false" })
	void aPrefixTakesItsPathAndWhatIsBelow(String target, boolean taken) {
		Site site = sites("sites[0].mount=data").get(0);
		assertThat(site.matches(target, null)).isEqualTo(taken);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "/|true", "/index.html|true", "/actuator|false", "/actuator/health|false",
			"/actuator?x|false", "/actuators|true", "http://h/actuator/health|false", "*|false" })
	void aRootSiteLeavesTheActuatorToWharf(String target, boolean taken) {
		Site site = sites("sites[0].mount=data", "sites[0].prefix=/").get(0);
		assertThat(site.prefix()).isEmpty();
		assertThat(site.matches(target, null)).isEqualTo(taken);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "www.example.test|true", "WWW.Example.TEST|true", "www.example.test:8334|true",
					"example.test|false", "www.example.test.evil|false", "[::1]:8334|true", "[::1]|true", "|false" })
	void hostsAreMatchedWithoutPortAndCase(String host, boolean taken) {
		Site site = sites("sites[0].mount=data", "sites[0].hosts[0]=www.example.test", "sites[0].hosts[1]=[::1]")
			.get(0);
		assertThat(site.matches("/static/a", host)).isEqualTo(taken);
	}

	@Test
	void hiddenNamesAreAnySegmentStartingWithADotButWellKnown() {
		Site site = sites("sites[0].mount=data").get(0);
		assertThat(site.isHidden(StoragePath.parse("/.env"))).isTrue();
		assertThat(site.isHidden(StoragePath.parse("/a/.git/config"))).isTrue();
		assertThat(site.isHidden(StoragePath.parse("/.well-known/acme-challenge/x"))).isFalse();
		assertThat(site.isHidden(StoragePath.parse("/a/.well-known/x"))).isTrue();
		assertThat(site.isHidden(StoragePath.parse("/a.b/c."))).isFalse();
		Site open = sites("sites[0].mount=data", "sites[0].dot-files=true").get(0);
		assertThat(open.isHidden(StoragePath.parse("/.env"))).isFalse();
	}

	@Test
	void contentTypesAndCacheControl() {
		Site site = sites("sites[0].mount=data", "sites[0].content-types.MD=text/x-markdown",
				"sites[0].content-types.log=text/plain; charset=utf-8", "sites[0].cache-control[0].pattern=/assets/**",
				"sites[0].cache-control[0].value=public, max-age=31536000, immutable",
				"sites[0].cache-control[1].pattern=/**/*.html", "sites[0].cache-control[1].value=no-cache")
			.get(0);
		assertThat(site.contentTypes().forName("README.md")).isEqualTo("text/x-markdown");
		assertThat(site.contentTypes().forName("server.LOG")).isEqualTo("text/plain; charset=utf-8");
		assertThat(site.contentTypes().forName("a.tar.gz")).isEqualTo("application/gzip");
		assertThat(site.contentTypes().forName("Makefile")).isEqualTo(MediaTypeRegistry.UNKNOWN);
		assertThat(site.contentTypes().forName("dot.")).isEqualTo(MediaTypeRegistry.UNKNOWN);
		assertThat(site.cacheControl().forPath("/assets/app.1234.js")).isEqualTo("public, max-age=31536000, immutable");
		assertThat(site.cacheControl().forPath("/assets/index.html")).isEqualTo("public, max-age=31536000, immutable");
		assertThat(site.cacheControl().forPath("/index.html")).isEqualTo("no-cache");
		assertThat(site.cacheControl().forPath("/a/b/page.html")).isEqualTo("no-cache");
		assertThat(site.cacheControl().forPath("/app.js")).isNull();
	}

	/** A mount that logs in as each user, which a public site cannot use. */
	static final class PassthroughStorage implements Storage {

		@Override
		public boolean needsUserCredentials() {
			return true;
		}

		@Override
		public Set<Capability> capabilities() {
			return Set.of();
		}

		@Override
		public Mono<FileEntry> stat(StoragePath path) {
			return Mono.error(new UnsupportedOperationException());
		}

		@Override
		public Flux<FileEntry> list(StoragePath directory) {
			return Flux.error(new UnsupportedOperationException());
		}

		@Override
		public Flux<DataBuffer> read(StoragePath path, ByteRange range) {
			return Flux.error(new UnsupportedOperationException());
		}

		@Override
		public Mono<FileEntry> write(StoragePath path, Flux<DataBuffer> content, WriteOptions options) {
			return Mono.error(new UnsupportedOperationException());
		}

		@Override
		public Mono<Void> delete(StoragePath path, boolean recursive) {
			return Mono.error(new UnsupportedOperationException());
		}

		@Override
		public Mono<FileEntry> createDirectory(StoragePath path) {
			return Mono.error(new UnsupportedOperationException());
		}

		@Override
		public Mono<FileEntry> move(StoragePath source, StoragePath target, boolean replace) {
			return Mono.error(new UnsupportedOperationException());
		}

	}

}
