package dev.wharf.app.helm;

import java.io.IOException;

import com.marcnuri.helm.LintResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code helm lint --strict} with every value set: no error and no warning (strict turns
 * warnings into failures and makes a template that reads a value missing from values.yaml
 * an error).
 */
class WharfChartLintTests {

	@ParameterizedTest
	@EnumSource(ValueSet.class)
	void lintsCleanly(ValueSet valueSet) throws IOException {
		LintResult result = WharfChart.lint(valueSet);
		assertThat(result.isFailed()).as(() -> String.join("\n", result.getMessages())).isFalse();
		assertThat(result.getMessages())
			.noneMatch((message) -> message.startsWith("[ERROR]") || message.startsWith("[WARNING]"));
	}

}
