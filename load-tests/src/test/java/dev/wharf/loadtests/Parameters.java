package dev.wharf.loadtests;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a simulation's parameters from system properties ({@code -Dlevels=1,5,10}), with
 * defaults. A bad value stops the run at once with a message naming the property, never a
 * silently different benchmark.
 *
 * <p>
 * Stateless and thread-safe.
 */
public final class Parameters {

	private Parameters() {
	}

	/**
	 * A text parameter.
	 * @param name the system property
	 * @param fallback the value when the property is not set
	 * @return the value
	 */
	public static String text(String name, String fallback) {
		String value = System.getProperty(name);
		return (value == null || value.isBlank()) ? fallback : value.trim();
	}

	/**
	 * A positive whole number.
	 * @param name the system property
	 * @param fallback the value when the property is not set
	 * @return the value, at least 1
	 */
	public static int positive(String name, int fallback) {
		String value = System.getProperty(name);
		if (value == null || value.isBlank()) {
			return fallback;
		}
		return parsePositive(name, value.trim());
	}

	/**
	 * A whole number that may be zero (zero usually turns something off).
	 * @param name the system property
	 * @param fallback the value when the property is not set
	 * @return the value, at least 0
	 */
	public static int nonNegative(String name, int fallback) {
		String value = System.getProperty(name);
		if (value == null || value.isBlank()) {
			return fallback;
		}
		return "0".equals(value.trim()) ? 0 : parsePositive(name, value.trim());
	}

	/**
	 * A comma-separated list of positive whole numbers, such as concurrency levels.
	 * @param name the system property
	 * @param fallback the value when the property is not set
	 * @return the values in the given order
	 */
	public static List<Integer> positives(String name, String fallback) {
		List<Integer> values = new ArrayList<>();
		for (String item : text(name, fallback).split(",")) {
			if (!item.isBlank()) {
				values.add(parsePositive(name, item.trim()));
			}
		}
		if (values.isEmpty()) {
			throw new IllegalArgumentException("-D" + name + " needs at least one value");
		}
		return List.copyOf(values);
	}

	/**
	 * A comma-separated list of names.
	 * @param name the system property
	 * @param fallback the value when the property is not set
	 * @return the names, lower case, in the given order
	 */
	public static List<String> names(String name, String fallback) {
		List<String> values = new ArrayList<>();
		for (String item : text(name, fallback).split(",")) {
			if (!item.isBlank()) {
				values.add(item.trim().toLowerCase(Locale.ROOT));
			}
		}
		return List.copyOf(values);
	}

	/**
	 * A true/false switch.
	 * @param name the system property
	 * @param fallback the value when the property is not set
	 * @return the value
	 */
	public static boolean flag(String name, boolean fallback) {
		String value = text(name, Boolean.toString(fallback)).toLowerCase(Locale.ROOT);
		return switch (value) {
			case "true", "yes", "on" -> true;
			case "false", "no", "off" -> false;
			default -> throw new IllegalArgumentException("-D" + name + "=" + value + ": use true or false");
		};
	}

	/**
	 * A byte size: a whole number with an optional {@code K} or {@code M} suffix (powers
	 * of 1024).
	 * @param name the system property, for the error message
	 * @param value the text, such as {@code 128}, {@code 4K} or {@code 1M}
	 * @return the size in bytes
	 */
	public static int byteSize(String name, String value) {
		String text = value.trim().toUpperCase(Locale.ROOT);
		int factor = 1;
		if (text.endsWith("K")) {
			factor = 1024;
		}
		else if (text.endsWith("M")) {
			factor = 1024 * 1024;
		}
		String digits = (factor == 1) ? text : text.substring(0, text.length() - 1);
		return Math.multiplyExact(parsePositive(name, digits), factor);
	}

	/**
	 * A byte size as the tables print it: {@code 128 B}, {@code 4 KiB}, {@code 1 MiB}.
	 * @param size the size in bytes
	 * @return the label
	 */
	public static String byteLabel(int size) {
		if (size % (1024 * 1024) == 0) {
			return size / (1024 * 1024) + " MiB";
		}
		return (size % 1024 == 0) ? size / 1024 + " KiB" : size + " B";
	}

	private static int parsePositive(String name, String value) {
		try {
			int parsed = Integer.parseInt(value);
			if (parsed > 0) {
				return parsed;
			}
		}
		catch (NumberFormatException ex) {
			// Reported below.
		}
		throw new IllegalArgumentException("-D" + name + "=" + value + ": not a positive whole number");
	}

}
