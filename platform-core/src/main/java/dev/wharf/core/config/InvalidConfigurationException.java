package dev.wharf.core.config;

import org.jspecify.annotations.Nullable;

/**
 * A configuration value that Wharf cannot start with. Names the property so the start-up
 * failure report (see {@link InvalidConfigurationFailureAnalyzer}) can tell the user
 * exactly what to fix. Never carries a secret value.
 */
public class InvalidConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String property;

	private final String reason;

	private final @Nullable String value;

	/**
	 * Creates the exception.
	 * @param property the full property name, such as
	 * {@code wharf.storage.mounts.data.root}, or a name relative to a prefix that
	 * {@link #withPrefix} adds later
	 * @param value the offending value, or {@code null} if it is missing or must not be
	 * shown
	 * @param reason what is wrong and, where useful, what is allowed
	 */
	public InvalidConfigurationException(String property, @Nullable String value, String reason) {
		super(property + ": " + reason);
		this.property = property;
		this.value = value;
		this.reason = reason;
	}

	/**
	 * The same error with the property name qualified by a prefix.
	 * @param prefix such as {@code wharf.storage.mounts.data}
	 * @return a new exception
	 */
	public InvalidConfigurationException withPrefix(String prefix) {
		InvalidConfigurationException qualified = new InvalidConfigurationException(prefix + "." + this.property,
				this.value, this.reason);
		qualified.setStackTrace(getStackTrace());
		return qualified;
	}

	/** The property's name. */
	public String property() {
		return this.property;
	}

	/** The value, or {@code null} if missing or secret. */
	public @Nullable String value() {
		return this.value;
	}

	/** What is wrong. */
	public String reason() {
		return this.reason;
	}

}
