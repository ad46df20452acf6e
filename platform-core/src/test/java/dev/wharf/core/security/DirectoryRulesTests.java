package dev.wharf.core.security;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.DirectoryProperties.RuleProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link DirectoryRules}.
 */
class DirectoryRulesTests {

	final DirectoryRules rules = new DirectoryRules(
			List.of(new RuleProperties("wharf-admins", List.of("admin"), Map.of("data", "rw")),
					new RuleProperties("ci", List.of("cache-writer"), Map.of()),
					new RuleProperties("staff", List.of("user"), Map.of("data", "ro", "scratch", "rw")),
					new RuleProperties("Data-Editors", List.of(), Map.of("data", "rw"))),
			Set.of("data", "scratch")::contains);

	@Test
	void everyMatchingRuleCountsAndTheGreaterRightWins() {
		User user = this.rules.user("alice", List.of("STAFF", "data-editors", "unrelated")).orElseThrow();
		assertThat(user.name()).isEqualTo("alice");
		assertThat(user.roles()).containsExactly(Role.USER);
		assertThat(user.mounts()).isEqualTo(Map.of("data", MountAccess.READ_WRITE, "scratch", MountAccess.READ_WRITE));
		assertThat(this.rules.user("bot", List.of("ci")).orElseThrow().roles()).containsExactly(Role.CACHE_WRITER);
		assertThat(this.rules.user("root", List.of("wharf-admins", "ci")).orElseThrow().isAdmin()).isTrue();
	}

	@Test
	void aUserInNoRulesGroupGetsNothing() {
		assertThat(this.rules.user("eve", List.of("visitors"))).isEmpty();
		assertThat(this.rules.user("eve", List.of())).isEmpty();
		assertThat(this.rules.isEmpty()).isFalse();
		assertThat(new DirectoryRules(List.of(), name -> true).isEmpty()).isTrue();
	}

	@Test
	void eachRuleIsAlsoAUserForThoseWhoAskWhoMayWrite() {
		assertThat(this.rules.ruleUsers()).extracting(User::name)
			.containsExactly("group:wharf-admins", "group:ci", "group:staff", "group:data-editors");
		assertThat(this.rules.ruleUsers().get(2).access("scratch")).isEqualTo(MountAccess.READ_WRITE);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			value = { "no group||user|data=rw|wharf.security.directory.rules[0].group",
					"blank group|' '|user|data=rw|wharf.security.directory.rules[0].group",
					"unknown role|staff|superuser|data=rw|wharf.security.directory.rules[0].roles",
					"unknown mount|staff|user|nope=rw|wharf.security.directory.rules[0].mounts.nope",
					"bad rights|staff|user|data=all|wharf.security.directory.rules[0].mounts.data",
					"nothing given|staff|||wharf.security.directory.rules[0]" })
	void refusesMalformedRulesNamingTheProperty(String title, String group, String role, String mount,
			String property) {
		Map<String, String> mounts = (mount == null) ? Map.of() : Map.of(mount.split("=")[0], mount.split("=")[1]);
		RuleProperties rule = new RuleProperties(group, (role == null) ? List.of() : List.of(role), mounts);
		assertThatThrownBy(() -> new DirectoryRules(List.of(rule), "data"::equals)).isInstanceOfSatisfying(
				InvalidConfigurationException.class, ex -> assertThat(ex.property()).isEqualTo(property));
	}

}
