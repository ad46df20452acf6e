package dev.wharf.core.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.security.DirectoryProperties.RuleProperties;

/**
 * The rules of {@code wharf.security.directory.rules}, checked at start-up: which roles
 * and mount rights the groups of a directory or identity provider user give. Immutable
 * and thread-safe.
 */
public final class DirectoryRules {

	private final List<Rule> rules;

	/**
	 * Checks and loads the rules.
	 * @param rules the configured rules
	 * @param mountExists tells whether a mount name is configured
	 * @throws InvalidConfigurationException naming the first bad property
	 */
	public DirectoryRules(List<RuleProperties> rules, Predicate<String> mountExists) {
		List<Rule> loaded = new ArrayList<>(rules.size());
		for (int i = 0; i < rules.size(); i++) {
			String prefix = "wharf.security.directory.rules[" + i + "]";
			RuleProperties rule = rules.get(i);
			String group = rule.group();
			if (group == null || group.isBlank()) {
				throw new InvalidConfigurationException(prefix + ".group", group, "every rule names a group");
			}
			Rights rights = Rights.parse(prefix, rule.roles(), rule.mounts(), mountExists);
			if (rights.isEmpty()) {
				throw new InvalidConfigurationException(prefix, null, "the rule gives no role and no mount");
			}
			loaded.add(new Rule(normalise(group), rights));
		}
		this.rules = List.copyOf(loaded);
	}

	/**
	 * Whether there is no rule, so nobody from a directory or identity provider can sign
	 * in.
	 */
	public boolean isEmpty() {
		return this.rules.isEmpty();
	}

	/**
	 * The user that groups make.
	 * @param name the user's name
	 * @param groups the user's groups, in any case
	 * @return the user with the rights of every matching rule, or empty if no rule
	 * matches
	 */
	public Optional<User> user(String name, Collection<String> groups) {
		Set<String> normalised = groups.stream().map(DirectoryRules::normalise).collect(Collectors.toSet());
		Rights rights = Rights.NONE;
		boolean matched = false;
		for (Rule rule : this.rules) {
			if (normalised.contains(rule.group())) {
				rights = rights.merge(rule.rights());
				matched = true;
			}
		}
		return matched ? Optional.of(rights.user(name)) : Optional.empty();
	}

	/**
	 * One user per rule, named after its group, for what needs to know who may have which
	 * rights (such as which mounts someone other than an admin may write).
	 * @return the users, named {@code group:<group>}
	 */
	public List<User> ruleUsers() {
		return this.rules.stream().map(rule -> rule.rights().user("group:" + rule.group())).toList();
	}

	private static String normalise(String group) {
		return group.trim().toLowerCase(Locale.ROOT);
	}

	private record Rule(String group, Rights rights) {
	}

}
