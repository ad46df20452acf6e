package dev.wharf.core.web;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NonAsciiTargetEncoder}.
 */
class NonAsciiTargetEncoderTests {

	@Test
	void eachByteThatIsNotAsciiBecomesAnEscapeOfThatByte() {
		assertThat(decodedTarget("/a?path=/ünï/日本/\uD83D\uDE00".getBytes(StandardCharsets.UTF_8)))
			.isEqualTo("/a?path=/%C3%BCn%C3%AF/%E6%97%A5%E6%9C%AC/%F0%9F%98%80");
		// Bytes that are no UTF-8 are kept exactly, for the strict decoding further on to
		// refuse.
		assertThat(decodedTarget(new byte[] { '/', 'x', (byte) 0xFF, (byte) 0xC0, (byte) 0xAF }))
			.isEqualTo("/x%FF%C0%AF");
	}

	@Test
	void asciiTargetsAreLeftAsTheyAre() {
		String target = "/a%20b?c=%zz&d=\\{}";
		assertThat(NonAsciiTargetEncoder.encode(target)).isSameAs(target);
		assertThat(decodedTarget(target.getBytes(StandardCharsets.US_ASCII))).isEqualTo(target);
	}

	/**
	 * What the handlers behind the encoder see as the target of a request whose target
	 * has these bytes.
	 */
	private static String decodedTarget(byte[] target) {
		EmbeddedChannel channel = new EmbeddedChannel(new HttpServerCodec(), NonAsciiTargetEncoder.INSTANCE);
		try {
			channel.writeInbound(Unpooled.wrappedBuffer(
					Unpooled.wrappedBuffer("GET ".getBytes(StandardCharsets.US_ASCII)), Unpooled.wrappedBuffer(target),
					Unpooled.wrappedBuffer(" HTTP/1.1\r\nHost: h\r\n\r\n".getBytes(StandardCharsets.US_ASCII))));
			Object request = channel.readInbound();
			try {
				assertThat(request).isInstanceOf(HttpRequest.class);
				return ((HttpRequest) request).uri();
			}
			finally {
				ReferenceCountUtil.release(request);
			}
		}
		finally {
			channel.finishAndReleaseAll();
		}
	}

}
