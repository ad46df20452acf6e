package dev.wharf.core.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidConfigurationException} into Spring Boot's start-up failure
 * report, naming the property, the value and the reason.
 */
class InvalidConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidConfigurationException cause) {
		StringBuilder description = new StringBuilder("Invalid Wharf configuration:\n\n");
		description.append("    Property: ").append(cause.property()).append('\n');
		if (cause.value() != null) {
			description.append("    Value:    ").append(cause.value()).append('\n');
		}
		description.append("    Reason:   ").append(cause.reason()).append('\n');
		return new FailureAnalysis(description.toString(),
				"Fix '" + cause.property() + "' in application.yaml, in the matching environment variable or in the --"
						+ cause.property() + " argument.",
				cause);
	}

}
