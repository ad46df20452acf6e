package dev.wharf.core.web;

import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Which outbound message ends a response, for the handlers that count the responses of a
 * connection on their way out (the request checks, the admission bound, the modules' fast
 * lanes).
 *
 * <p>
 * Thread-safe (stateless).
 */
public final class ResponseEnds {

	private ResponseEnds() {
	}

	/**
	 * Whether a message written to a connection is the last part of a response. A whole
	 * interim response ({@code 100 Continue}, {@code 103 Early Hints}) is a
	 * {@link LastHttpContent} too, but the response it precedes is still to come;
	 * {@code 101 Switching Protocols} does end the connection's HTTP/1.1 exchange.
	 * @param msg the message, of any type
	 * @return whether it ends a response
	 */
	public static boolean endsResponse(Object msg) {
		return msg instanceof LastHttpContent && !interim(msg);
	}

	private static boolean interim(Object msg) {
		return msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL
				&& !response.status().equals(HttpResponseStatus.SWITCHING_PROTOCOLS);
	}

}
