package dev.wharf.filemanager.http;

import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.storage.PercentDecoding;
import org.jspecify.annotations.Nullable;

/**
 * Reads parameters from a raw query string, strictly: values are decoded once with
 * {@link PercentDecoding#decodeQueryValue} (malformed escapes and malformed UTF-8 are
 * refused, never replaced), and a parameter that must appear once but appears twice is
 * refused, so no two layers can read different values from one request. Names are plain
 * ASCII and compared as sent.
 */
public final class Query {

	private final @Nullable String raw;

	/**
	 * Wraps a raw query.
	 * @param raw the query as received (after {@code ?}, still encoded), or {@code null}
	 */
	public Query(@Nullable String raw) {
		this.raw = raw;
	}

	/**
	 * A parameter that may appear at most once.
	 * @param name its name
	 * @return its decoded value ({@code ""} for {@code name} or {@code name=}), or
	 * {@code null} if absent
	 * @throws ApiException 400 if it appears more than once
	 * @throws dev.wharf.core.storage.InvalidStoragePathException if its encoding is
	 * malformed
	 */
	public @Nullable String optional(String name) {
		List<String> values = rawValues(name);
		if (values.size() > 1) {
			throw ApiException.badRequest("Parameter '" + name + "' is given more than once");
		}
		return values.isEmpty() ? null : PercentDecoding.decodeQueryValue(values.get(0));
	}

	/**
	 * A parameter that must appear exactly once.
	 * @param name its name
	 * @return its decoded value
	 * @throws ApiException 400 if it is missing or repeated
	 */
	public String required(String name) {
		String value = optional(name);
		if (value == null) {
			throw ApiException.badRequest("Missing parameter '" + name + "'");
		}
		return value;
	}

	/**
	 * Every value of a repeatable parameter.
	 * @param name its name
	 * @return the decoded values, in order
	 */
	public List<String> all(String name) {
		List<String> values = rawValues(name);
		values.replaceAll(PercentDecoding::decodeQueryValue);
		return values;
	}

	private List<String> rawValues(String name) {
		List<String> values = new ArrayList<>(1);
		String raw = this.raw;
		if (raw == null) {
			return values;
		}
		int start = 0;
		int length = raw.length();
		while (start <= length) {
			int end = raw.indexOf('&', start);
			if (end < 0) {
				end = length;
			}
			String value = valueOf(raw, start, end, name);
			if (value != null) {
				values.add(value);
			}
			start = end + 1;
		}
		return values;
	}

	/**
	 * Whether a flag parameter is set to {@code true} (or given without a value).
	 * @param name its name
	 * @return whether it is on
	 */
	public boolean flag(String name) {
		String value = optional(name);
		return value != null && (value.isEmpty() || value.equals("true") || value.equals("1"));
	}

	private static @Nullable String valueOf(String raw, int start, int end, String name) {
		int nameEnd = start + name.length();
		if (nameEnd > end || !raw.startsWith(name, start)) {
			return null;
		}
		if (nameEnd == end) {
			return "";
		}
		return (raw.charAt(nameEnd) == '=') ? raw.substring(nameEnd + 1, end) : null;
	}

}
