package dev.wharf.core.web;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ResponseEnds}.
 */
class ResponseEndsTests {

	@Test
	void theLastPartOfAResponseEndsIt() {
		assertThat(ResponseEnds.endsResponse(LastHttpContent.EMPTY_LAST_CONTENT)).isTrue();
		assertThat(ResponseEnds.endsResponse(full(HttpResponseStatus.OK))).isTrue();
		assertThat(ResponseEnds.endsResponse(full(HttpResponseStatus.NOT_FOUND))).isTrue();
	}

	@Test
	void aHeadOrAPartInTheMiddleDoesNot() {
		assertThat(ResponseEnds.endsResponse(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK)))
			.isFalse();
		assertThat(ResponseEnds.endsResponse(new DefaultHttpContent(Unpooled.EMPTY_BUFFER))).isFalse();
		assertThat(ResponseEnds.endsResponse(Unpooled.EMPTY_BUFFER)).isFalse();
	}

	@Test
	void anInterimResponseDoesNotButSwitchingProtocolsDoes() {
		assertThat(ResponseEnds.endsResponse(full(HttpResponseStatus.CONTINUE))).isFalse();
		assertThat(ResponseEnds.endsResponse(full(HttpResponseStatus.valueOf(103)))).isFalse();
		assertThat(ResponseEnds.endsResponse(full(HttpResponseStatus.SWITCHING_PROTOCOLS))).isTrue();
	}

	private static DefaultFullHttpResponse full(HttpResponseStatus status) {
		return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
	}

}
