package dev.wharf.core.concurrent;

import java.io.IOException;
import java.net.SocketException;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DroppedErrors}: a client that went away is no error, a fault still is.
 */
@ExtendWith(OutputCaptureExtension.class)
class DroppedErrorsTests {

	@AfterEach
	void resetHook() {
		Hooks.resetOnErrorDropped();
	}

	@Test
	void disconnectsDroppedAfterCancellationAreNotErrors(CapturedOutput output) {
		Hooks.onErrorDropped(DroppedErrors::dropped);
		Operators.onErrorDropped(new IOException("The TLS handshake did not complete",
				new SSLHandshakeException("Received fatal alert: certificate_unknown")), Context.empty());
		Operators.onErrorDropped(new IllegalStateException("wrapped", new SocketException("Connection reset")),
				Context.empty());
		assertThat(output).doesNotContain("ERROR").doesNotContain("\tat ");
	}

	@Test
	void otherDroppedErrorsKeepTheirStackTrace(CapturedOutput output) {
		Hooks.onErrorDropped(DroppedErrors::dropped);
		Operators.onErrorDropped(new IllegalStateException("a real fault"), Context.empty());
		assertThat(output).contains("ERROR")
			.contains("onErrorDropped")
			.contains("IllegalStateException: a real fault")
			.contains("\tat ");
	}

	@Test
	void withoutTheHookReactorLogsEveryDroppedErrorWithItsStackTrace(CapturedOutput output) {
		Operators.onErrorDropped(new IOException("Connection reset"), Context.empty());
		assertThat(output).contains("ERROR").contains("\tat ");
	}

	@Test
	void disconnectsAreTheErrorsWithAnIoCause() {
		assertThat(Disconnects.isOrdinary(new IOException("Broken pipe"))).isTrue();
		assertThat(Disconnects.isOrdinary(new RuntimeException(new SSLHandshakeException("refused")))).isTrue();
		assertThat(Disconnects.isOrdinary(new IllegalStateException("bug"))).isFalse();
		assertThat(Disconnects.describe(new RuntimeException("outer", new SocketException("Connection reset"))))
			.isEqualTo("SocketException: Connection reset");
	}

}
