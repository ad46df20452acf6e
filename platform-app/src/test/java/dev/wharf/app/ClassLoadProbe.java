package dev.wharf.app;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.apache.commons.logging.LogFactory;

/**
 * Run in a JVM of its own by {@code SmallProfileClassLoadingTests}: does what Wharf's start does first with
 * logging (select the factory in {@code main}, then make and use a logger) and with Netty (allocate and free a
 * buffer from its default allocator, as Reactor Netty does for every connection), so that the JVM's
 * class-loading log shows what those two load.
 */
public final class ClassLoadProbe {

	private ClassLoadProbe() {
	}

	public static void main(String[] args) {
		CommonsLoggingFactory.selectSlf4j();
		LogFactory.getLog(ClassLoadProbe.class).info("probe logging");
		ByteBuf buffer = ByteBufAllocator.DEFAULT.ioBuffer(1024);
		buffer.writeLong(42);
		buffer.release();
		System.out.println("probe done");
	}

}
