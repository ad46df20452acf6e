package dev.wharf.staticfiles.server;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.staticfiles.resolve.StoredFile;
import dev.wharf.staticfiles.site.Site;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Streams a stored file's bytes from its storage as Netty buffers, for backends without
 * local files (and for multipart ranges), checking that exactly the announced number of
 * bytes arrives: a response whose {@code Content-Length} is already sent must not end
 * early or run long, or the connection would be out of step; it fails instead, and the
 * server closes the connection.
 */
final class Streams {

	private Streams() {
	}

	/**
	 * Reads bytes of a file.
	 * @param site the file's site
	 * @param file the file
	 * @param range which bytes
	 * @param expected how many bytes the response announced
	 * @return the bytes; fails if the storage fails or gives another number of bytes
	 */
	static Flux<ByteBuf> read(Site site, StoredFile file, ByteRange range, long expected) {
		return Flux.defer(() -> {
			long[] seen = { 0 };
			return site.storage().read(file.path(), range).map(Streams::toByteBuf).<ByteBuf>handle((buffer, sink) -> {
				seen[0] += buffer.readableBytes();
				if (seen[0] > expected) {
					ReferenceCountUtil.release(buffer);
					sink.error(changed(file));
				}
				else {
					sink.next(buffer);
				}
			})
				.concatWith(Mono.defer(() -> (seen[0] == expected) ? Mono.empty() : Mono.error(changed(file))))
				.doOnDiscard(ByteBuf.class, ReferenceCountUtil::safeRelease);
		});
	}

	private static StorageIoException changed(StoredFile file) {
		return new StorageIoException("The length of " + file.path() + " changed while it was sent");
	}

	/**
	 * The same bytes as a Netty buffer, without copying where possible; takes over the
	 * release.
	 */
	private static ByteBuf toByteBuf(DataBuffer buffer) {
		if (buffer instanceof NettyDataBuffer netty) {
			return netty.getNativeBuffer();
		}
		if (buffer instanceof DefaultDataBuffer heap) {
			return Unpooled.wrappedBuffer(heap.getNativeBuffer());
		}
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return Unpooled.wrappedBuffer(bytes);
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

}
