package dev.wharf.core.config;

import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Opens the package-private failure analyzer to tests in other packages.
 */
public class InvalidConfigurationFailureAnalyzerAccess {

	public FailureAnalysis analyze(Throwable failure) {
		return new InvalidConfigurationFailureAnalyzer().analyze(failure);
	}

}
