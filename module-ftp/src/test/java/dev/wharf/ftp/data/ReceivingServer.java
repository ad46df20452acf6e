package dev.wharf.ftp.data;

import java.time.Duration;
import java.util.function.Consumer;

import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpServer;

/**
 * A TCP server on 127.0.0.1, on one event loop, whose connections receive as
 * {@link DataConnections}' do: reads from a {@link ReceiveBudget}'s pool and sized by it,
 * and an {@link EarlyReceiver} (which waits for room) subscribed on the connection's
 * event loop before anything is read.
 */
final class ReceivingServer implements AutoCloseable {

	private final LoopResources loops;

	private final DisposableServer server;

	/**
	 * Binds the server.
	 * @param name names its event loop
	 * @param budget the read buffers of all its connections
	 * @param connected gets each connection's receiver, on the connection's event loop
	 */
	ReceivingServer(String name, ReceiveBudget budget, Consumer<EarlyReceiver> connected) {
		this.loops = LoopResources.create(name, 1, 1, true);
		this.server = TcpServer.create()
			.runOn(this.loops, DataConnections.NATIVE_TRANSPORT)
			.host("127.0.0.1")
			.port(0)
			.doOnChannelInit((observer, channel, remote) -> {
				channel.config().setAllocator(budget.buffers());
				channel.config().setRecvByteBufAllocator(budget.allocator());
			})
			.doOnConnection(connection -> {
				EarlyReceiver early = new EarlyReceiver(connection.channel().config(), budget, true);
				connection.inbound().receive().subscribe(early);
				connected.accept(early);
			})
			.handle((in, out) -> out.neverComplete())
			.bindNow();
	}

	int port() {
		return this.server.port();
	}

	@Override
	public void close() {
		this.server.disposeNow();
		this.loops.disposeLater().block(Duration.ofSeconds(10));
	}

}
