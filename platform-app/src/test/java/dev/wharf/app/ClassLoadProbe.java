package dev.wharf.app;

import dev.wharf.core.storage.s3.S3StorageProvider;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.apache.commons.logging.LogFactory;

/**
 * Run in a JVM of its own by {@code SmallProfileClassLoadingTests}: does what Wharf's
 * start does first with logging (select the factory in {@code main}, then make and use a
 * logger) and with Netty (allocate and free a buffer from its default allocator, as
 * Reactor Netty does for every connection) and with the {@code s3} backend's provider
 * (create and introspect it, as Spring does), so that the JVM's class-loading log shows
 * what those load.
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
		// What Spring does with the s3 backend's provider in every application, whether
		// or not a mount is s3.
		System.out.println("probe made a provider of " + new S3StorageProvider().type() + " with "
				+ S3StorageProvider.class.getDeclaredMethods().length + " methods");
		System.out.println("probe done");
	}

}
