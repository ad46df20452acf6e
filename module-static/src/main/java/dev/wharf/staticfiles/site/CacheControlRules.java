package dev.wharf.staticfiles.site;

import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.staticfiles.site.StaticFilesProperties.CacheControlRule;
import org.jspecify.annotations.Nullable;
import org.springframework.util.AntPathMatcher;

/**
 * A site's {@code Cache-Control} rules: the first whose pattern matches a file's path
 * inside the site gives the header; without a match the header is left out (as nginx
 * does), and browsers revalidate with {@code If-None-Match}/{@code If-Modified-Since} as
 * they see fit.
 *
 * <p>
 * Immutable; safe for concurrent use.
 */
public final class CacheControlRules {

	private static final AntPathMatcher MATCHER = new AntPathMatcher();

	private final List<String[]> rules;

	/**
	 * Checks and keeps the rules.
	 * @param rules as configured
	 * @param property the property they come from, for errors
	 * @throws InvalidConfigurationException if a pattern or value is missing or malformed
	 */
	public CacheControlRules(List<CacheControlRule> rules, String property) {
		List<String[]> checked = new ArrayList<>(rules.size());
		for (int i = 0; i < rules.size(); i++) {
			CacheControlRule rule = rules.get(i);
			String name = property + "[" + i + "]";
			if (rule.pattern() == null || !rule.pattern().startsWith("/")) {
				throw new InvalidConfigurationException(name + ".pattern", rule.pattern(),
						"a pattern is a path inside the site starting with '/', such as /assets/**");
			}
			if (rule.value() == null || rule.value().isBlank() || !HeaderValues.isValid(rule.value())) {
				throw new InvalidConfigurationException(name + ".value", rule.value(),
						"a Cache-Control value such as 'public, max-age=31536000, immutable' (no control characters)");
			}
			checked.add(new String[] { rule.pattern(), rule.value().trim() });
		}
		this.rules = List.copyOf(checked);
	}

	/**
	 * The header for a file.
	 * @param path the file's path inside the site, starting with {@code /}
	 * @return the value, or {@code null} for none
	 */
	public @Nullable String forPath(String path) {
		for (String[] rule : this.rules) {
			if (MATCHER.match(rule[0], path)) {
				return rule[1];
			}
		}
		return null;
	}

}
