package dev.wharf.core.storage.mount;

import java.util.function.Function;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.util.unit.DataSize;

/**
 * One configured mount, as a {@link StorageProvider} receives it: its name, type, and its
 * properties under {@code wharf.storage.mounts.<name>}.
 *
 * @param name the mount's name
 * @param type the mount's type
 * @param binder binds the mount's properties
 */
public record MountDefinition(String name, String type, Binder binder) {

	/** Where mounts are configured. */
	public static final String PREFIX = "wharf.storage.mounts";

	/** The mount's property prefix, such as {@code wharf.storage.mounts.data}. */
	public String prefix() {
		return PREFIX + "." + this.name;
	}

	/**
	 * Reads a whole-number setting that applies to every mount of a type rather than to
	 * this one (a JVM profile sets such settings with {@code -D}, as it cannot name the
	 * mounts).
	 * @param property the setting's full name
	 * @param absent the value when it is not set
	 * @param min the smallest value allowed
	 * @param max the largest value allowed
	 * @return the value
	 * @throws InvalidConfigurationException naming the setting if it is not a whole
	 * number from {@code min} to {@code max}
	 */
	public int sharedSetting(String property, int absent, int min, int max) {
		return shared(property, absent, min, max, Integer::valueOf, "a whole number from " + min + " to " + max);
	}

	/**
	 * Reads a size shared by every mount of a type, such as
	 * {@code wharf.storage.sftp.window-size}, the way {@link #sharedSetting} reads a
	 * number: {@code absent} when it is not set, and an
	 * {@link InvalidConfigurationException} naming the property when it is no size (such
	 * as {@code 256KB}) within the range.
	 * @param property the full property name
	 * @param absent the size when the property is not set
	 * @param min the smallest size accepted
	 * @param max the largest size accepted
	 * @return the size
	 */
	public DataSize sharedSize(String property, DataSize absent, DataSize min, DataSize max) {
		return shared(property, absent, min, max, DataSize::parse,
				"a size from " + min.toKilobytes() + "KB to " + max.toKilobytes() + "KB");
	}

	/**
	 * A shared setting: {@code absent} when it is not set, else its value parsed, which
	 * must lie from {@code min} to {@code max}.
	 * @param expected what the message says the value must be
	 */
	private <T extends Comparable<? super T>> T shared(String property, T absent, T min, T max,
			Function<String, T> parse, String expected) {
		String value = this.binder.bind(property, Bindable.of(String.class)).orElse(null);
		if (value == null) {
			return absent;
		}
		@Nullable T parsed;
		try {
			parsed = parse.apply(value.strip());
		}
		catch (IllegalArgumentException ex) {
			// NumberFormatException included.
			parsed = null;
		}
		if (parsed == null || parsed.compareTo(min) < 0 || parsed.compareTo(max) > 0) {
			throw new InvalidConfigurationException(property, value, "must be " + expected);
		}
		return parsed;
	}

	/**
	 * Binds the mount's properties to a type, refusing unknown properties (a typo stops
	 * start-up instead of being ignored) and qualifying any
	 * {@link InvalidConfigurationException} the type's constructor throws with the
	 * mount's prefix.
	 * @param <T> the properties type
	 * @param propertiesType usually a record with defaults
	 * @return the bound properties
	 */
	public <T> T bind(Class<T> propertiesType) {
		ConfigurationPropertyName prefix = ConfigurationPropertyName.of(prefix());
		BindHandler strict = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
		try {
			// Binding "type" through the same handler marks it as known.
			this.binder.bind(prefix.append("type"), Bindable.of(String.class), strict);
			return this.binder.bindOrCreate(prefix, Bindable.of(propertiesType), strict);
		}
		catch (BindException ex) {
			for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
				if (cause instanceof InvalidConfigurationException invalid) {
					throw invalid.withPrefix(prefix());
				}
			}
			throw ex;
		}
	}

}
