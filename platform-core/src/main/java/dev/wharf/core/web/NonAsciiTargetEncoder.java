package dev.wharf.core.web;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Percent-encodes the bytes of a request target that are not ASCII, so a client that
 * sends UTF-8 unencoded ({@code ?path=/data/ünï}, as curl and some libraries do) is read
 * as if it had encoded it, and the strict decoding further on reads the bytes as UTF-8 or
 * refuses them (malformed UTF-8 is an error there, never repaired).
 *
 * <p>
 * Netty's HTTP/1.1 decoder turns each byte of the request line into one character
 * (ISO-8859-1), so {@code ü} (bytes {@code C3 BC}) arrived as {@code Ã¼}: Spring's
 * request URI accepted those characters and the file manager created {@code raw-Ã¼nÃ¯},
 * while bytes that become control characters ({@code 日} is {@code E6 97 A5}) made Spring
 * refuse the URI with an empty 400 before any filter ran. Encoding every such byte as
 * {@code %XX} keeps each one exactly, and is what a client that follows RFC 3986 sends
 * anyway. ASCII is left alone: characters a URI cannot hold raw are refused further on.
 *
 * <p>
 * Sharable and stateless; runs on the connection's event loop, and leaves targets that
 * are plain ASCII (nearly all) as they are, without copying.
 */
@Sharable
public final class NonAsciiTargetEncoder extends ChannelInboundHandlerAdapter {

	/** The handler's name in the pipeline. */
	public static final String NAME = "wharf.nonAsciiTargetEncoder";

	static final NonAsciiTargetEncoder INSTANCE = new NonAsciiTargetEncoder();

	private static final char[] HEX = "0123456789ABCDEF".toCharArray();

	private NonAsciiTargetEncoder() {
	}

	/**
	 * Installs the handler on every HTTP/1.1 connection of a server, right after the HTTP
	 * codec, so every route and WebFlux see the encoded target.
	 * @param server the server
	 * @return the server with the handler
	 */
	public static HttpServer install(HttpServer server) {
		return server.doOnChannelInit((observer, channel, remoteAddress) -> {
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(NAME) == null) {
				channel.pipeline().addAfter(NettyPipeline.HttpCodec, NAME, INSTANCE);
			}
		});
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (msg instanceof HttpRequest request) {
			String target = request.uri();
			String encoded = encode(target);
			if (encoded != target) {
				request.setUri(encoded);
			}
		}
		ctx.fireChannelRead(msg);
	}

	/**
	 * The target with each character from U+0080 to U+00FF (one byte of the request line)
	 * written as {@code %XX}.
	 * @param target the request target as Netty decoded it
	 * @return the same string if it is ASCII, else the encoded target
	 */
	static String encode(String target) {
		int first = 0;
		while (first < target.length() && target.charAt(first) < 0x80) {
			first++;
		}
		if (first == target.length()) {
			return target;
		}
		StringBuilder encoded = new StringBuilder(target.length() + 32).append(target, 0, first);
		for (int i = first; i < target.length(); i++) {
			char c = target.charAt(i);
			if (c >= 0x80 && c <= 0xFF) {
				encoded.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
			}
			else {
				encoded.append(c);
			}
		}
		return encoded.toString();
	}

}
