package dev.wharf.buildcache.http;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * A cache request that came through Reactor Netty's routes ({@link CacheRoutes}),
 * answered with Reactor Netty's response. One instance per request.
 */
final class RoutedExchange extends CacheExchange {

	private final HttpServerRequest request;

	private final HttpServerResponse response;

	RoutedExchange(HttpServerRequest request, HttpServerResponse response) {
		super(request.method());
		this.request = request;
		this.response = response;
	}

	@Override
	HttpHeaders requestHeaders() {
		return this.request.requestHeaders();
	}

	@Override
	@Nullable InetSocketAddress remoteAddress() {
		return this.request.remoteAddress();
	}

	@Override
	@Nullable Channel channel() {
		return (this.request instanceof Connection connection) ? connection.channel() : null;
	}

	@Override
	Flux<ByteBuf> body() {
		return this.request.receive().retain();
	}

	@Override
	void header(CharSequence name, String value) {
		this.response.header(name, value);
	}

	@Override
	boolean hasSentHeaders() {
		return this.response.hasSentHeaders();
	}

	@Override
	Mono<Void> sendHead(HttpResponseStatus status) {
		return this.response.status(status).send().then();
	}

	@Override
	Mono<Void> sendWhole(HttpResponseStatus status, ByteBuf body) {
		return this.response.status(status).sendObject(body).then();
	}

	@Override
	Mono<Void> sendStream(HttpResponseStatus status, Flux<ByteBuf> body) {
		return this.response.status(status).send(body).then();
	}

}
