package dev.wharf.core.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.concurrent.BlockingScheduler;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.config.PlatformProperties;
import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.CompositeUserDirectory;
import dev.wharf.core.security.ConfiguredUserDirectory;
import dev.wharf.core.security.DirectoryProperties;
import dev.wharf.core.security.DirectoryRules;
import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.security.ExternalUserDirectory;
import dev.wharf.core.security.ExternalUserStore;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.security.FileExternalUserStore;
import dev.wharf.core.security.InMemoryLoginThrottle;
import dev.wharf.core.security.InitialAdmin;
import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.security.OidcProperties;
import dev.wharf.core.security.SecurityProperties;
import dev.wharf.core.security.TokenPasswords;
import dev.wharf.core.security.User;
import dev.wharf.core.security.UserDirectory;
import dev.wharf.core.security.ldap.LdapProperties;
import dev.wharf.core.security.ldap.LdapUserDirectory;
import dev.wharf.core.state.InProcessInvalidations;
import dev.wharf.core.state.Invalidations;
import dev.wharf.core.storage.mount.MountRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;
import reactor.core.scheduler.Scheduler;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for users and authentication: the user directory (the users of
 * {@code wharf.security.users} or the generated admin, then those of an LDAP directory
 * and an OIDC provider when configured), the login throttle, the audit log and the
 * {@link Authenticator} every protocol uses.
 */
@AutoConfiguration(after = StorageAutoConfiguration.class)
@EnableConfigurationProperties({ SecurityProperties.class, PlatformProperties.class, DirectoryProperties.class,
		LdapProperties.class, OidcProperties.class })
public final class SecurityAutoConfiguration {

	private static final Log logger = LogFactory.getLog(SecurityAutoConfiguration.class);

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	@Conditional(ExternalSignIn.class)
	ExternalUserStore externalUserStore(PlatformProperties platform) {
		Path file = Path.of(platform.stateDir()).toAbsolutePath().normalize().resolve(FileExternalUserStore.FILE_NAME);
		// Changes come with sign-ins whose groups changed, and with hourly "last seen"
		// updates: one thread is plenty.
		return new FileExternalUserStore(file, BlockingScheduler.create("wharf-external-users", 1, 1000),
				Duration.ofSeconds(5));
	}

	@Bean
	@ConditionalOnMissingBean
	@Conditional(ExternalSignIn.class)
	ExternalUsers externalUsers(ExternalUserStore store, DirectoryProperties directory, MountRegistry mounts) {
		DirectoryRules rules = new DirectoryRules(directory.rules(), name -> mounts.find(name).isPresent());
		if (rules.isEmpty()) {
			throw new InvalidConfigurationException("wharf.security.directory.rules", null,
					"LDAP or OIDC sign-in is on, but no rule gives anyone a right: every sign-in would be refused");
		}
		return new ExternalUsers(store, rules, directory.forgetAfter(), Clock.systemUTC());
	}

	/**
	 * The users: those of {@code wharf.security.users} (or the generated admin), then,
	 * when configured, those of an LDAP directory and of an OIDC provider.
	 */
	@Bean
	@ConditionalOnMissingBean
	UserDirectory userDirectory(SecurityProperties security, PlatformProperties platform, MountRegistry mounts,
			LdapProperties ldap, OidcProperties oidc, ObjectProvider<ExternalUsers> external,
			ObjectProvider<SslBundles> bundles) {
		ConfiguredUserDirectory configured = configured(security, platform, mounts, ldap.enabled() || oidc.enabled());
		ExternalUsers users = external.getIfAvailable();
		if (users == null) {
			return configured;
		}
		List<UserDirectory> others = new ArrayList<>();
		if (ldap.enabled()) {
			// Directory calls wait on the network, not the CPU: more threads than cores,
			// and a queue past which
			// logins are answered "try again" rather than waiting behind a directory that
			// does not answer.
			Scheduler workers = BlockingScheduler.create("wharf-ldap", 16, 1024);
			others.add(new LdapUserDirectory(ldap, sslBundle(ldap, bundles), users, workers, Clock.systemUTC()));
		}
		if (oidc.enabled()) {
			others.add(new ExternalUserDirectory(users, Source.OIDC));
		}
		if (!configured.isEmpty()) {
			logger
				.info("Configured users keep their configured passwords; a directory or provider is never asked about "
						+ "their names: "
						+ String.join(", ", configured.users().stream().map(User::name).sorted().toList()));
		}
		return new CompositeUserDirectory(configured, others);
	}

	private static ConfiguredUserDirectory configured(SecurityProperties security, PlatformProperties platform,
			MountRegistry mounts, boolean external) {
		ConfiguredUserDirectory configured = new ConfiguredUserDirectory(security.users(),
				name -> mounts.find(name).isPresent());
		if (!configured.isEmpty() || external) {
			// With a directory or a provider, users come from there: no account is
			// generated.
			return configured;
		}
		try {
			return InitialAdmin.loadOrCreate(Path.of(platform.stateDir()).toAbsolutePath().normalize(), System.out);
		}
		catch (IOException ex) {
			throw new InvalidConfigurationException("wharf.state-dir", platform.stateDir(),
					"cannot store the generated admin account: " + ex.getMessage());
		}
	}

	private static @Nullable SslBundle sslBundle(LdapProperties ldap, ObjectProvider<SslBundles> bundles) {
		String name = ldap.sslBundle();
		if (name == null || name.isBlank()) {
			return null;
		}
		SslBundles registry = bundles.getIfAvailable();
		try {
			if (registry == null) {
				throw new NoSuchSslBundleException(name, "no SSL bundles are configured");
			}
			return registry.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw new InvalidConfigurationException("wharf.security.ldap.ssl-bundle", name,
					"no such bundle in spring.ssl.bundle");
		}
	}

	@Bean
	@ConditionalOnMissingBean
	LoginThrottle loginThrottle() {
		return new InMemoryLoginThrottle();
	}

	@Bean
	@ConditionalOnMissingBean
	AuditLog auditLog() {
		return new AuditLog();
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	Authenticator authenticator(UserDirectory directory, LoginThrottle throttle, AuditLog audit, LdapProperties ldap,
			ObjectProvider<TokenPasswords> tokens, ObjectProvider<Invalidations> invalidations) {
		// Password checks are CPU-bound: one thread per core, and a short queue so a
		// flood is refused, not queued.
		int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
		Scheduler hashing = BlockingScheduler.create("wharf-auth", threads, threads * 256);
		Duration cacheTime = ldap.enabled() ? ldap.cacheTime() : Authenticator.CACHE_TIME;
		return new Authenticator(directory, throttle, audit, hashing, cacheTime, tokens.getIfAvailable(),
				invalidations.getIfAvailable(InProcessInvalidations::new));
	}

	private static boolean ldap(ConditionContext context) {
		return !Binder.get(context.getEnvironment())
			.bind("wharf.security.ldap.urls", Bindable.listOf(String.class))
			.orElse(List.of())
			.isEmpty();
	}

	private static boolean oidc(ConditionContext context) {
		return Binder.get(context.getEnvironment())
			.bind("wharf.security.oidc.issuer", String.class)
			.map(issuer -> !issuer.isBlank())
			.orElse(false);
	}

	/**
	 * Whether users may sign in through LDAP or OIDC, which need a place to remember
	 * them.
	 */
	public static final class ExternalSignIn extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return (ldap(context) || oidc(context)) ? ConditionOutcome.match("LDAP or OIDC sign-in is configured")
					: ConditionOutcome
						.noMatch("neither wharf.security.ldap.urls nor wharf.security.oidc.issuer is set");
		}

	}

}
