package dev.wharf.core.security;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.security.SecurityProperties.UserProperties;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CompositeUserDirectory}.
 */
class CompositeUserDirectoryTests {

	final ConfiguredUserDirectory configured = new ConfiguredUserDirectory(
			List.of(new UserProperties("admin", PasswordHashing.hash("local-pw"), List.of("admin"), Map.of())),
			name -> true);

	final AtomicInteger asked = new AtomicInteger();

	/** A directory that knows an "admin" and a "bob" with the password "directory-pw". */
	final UserDirectory directory = new UserDirectory() {

		@Override
		public Mono<User> verify(String name, String password) {
			return Mono.fromCallable(() -> {
				CompositeUserDirectoryTests.this.asked.incrementAndGet();
				return "directory-pw".equals(password) ? new User(name, Set.of(Role.ADMIN), Map.of()) : null;
			});
		}

		@Override
		public Optional<User> find(String name) {
			return Optional.of(new User(name, Set.of(Role.USER), Map.of()));
		}

	};

	final CompositeUserDirectory composite = new CompositeUserDirectory(this.configured, List.of(this.directory));

	@Test
	void aConfiguredNameIsNeverSentToTheDirectory() {
		assertThat(this.composite.verify("admin", "directory-pw").block()).isNull();
		assertThat(this.composite.verify("admin", "local-pw").block()).isNotNull();
		assertThat(this.asked).hasValue(0);
		assertThat(this.composite.find("admin").orElseThrow().isAdmin()).isTrue();
	}

	@Test
	void otherNamesGoToTheDirectory() {
		assertThat(this.composite.verify("bob", "directory-pw").block()).isNotNull();
		assertThat(this.composite.verify("bob", "local-pw").block()).isNull();
		assertThat(this.asked).hasValue(2);
		assertThat(this.composite.find("bob").orElseThrow().roles()).containsExactly(Role.USER);
	}

}
