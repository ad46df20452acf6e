package dev.wharf.filemanager.thumbnail;

import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.wharf.filemanager.autoconfigure.FileManagerProperties;
import org.springframework.util.unit.DataSize;

/**
 * Makes thumbnails in a JVM of its own, started with a JVM profile's options by
 * {@link SmallHeapThumbnailTests}: first holds as much heap as a running Wharf keeps
 * live, then makes a thumbnail of every file given, all at once on as many threads as the
 * file manager starts there, with the budget it computes there. Prints one line per file:
 * {@code <name> OK <width>x<height>} or {@code <name> REFUSED <status> <message>}.
 */
public final class SmallHeapThumbnails {

	private SmallHeapThumbnails() {
	}

	/**
	 * Runs.
	 * @param args the megabytes of heap to hold live, then the image files
	 */
	public static void main(String[] args) throws Exception {
		byte[][] live = new byte[Integer.parseInt(args[0])][];
		for (int i = 0; i < live.length; i++) {
			live[i] = new byte[1 << 20];
		}
		// The file manager's defaults, evaluated in this JVM (its heap, its processors).
		FileManagerProperties.Thumbnails properties = new FileManagerProperties.Thumbnails(200,
				DataSize.ofMegabytes(32), 100_000_000, null, DataSize.ofMegabytes(50), 0, true, false, 4096,
				Duration.ofSeconds(60));
		ImageThumbnailer thumbnailer = new ImageThumbnailer(properties.size(), properties.maxPixels(),
				properties.effectiveMaxDecodedBytes(), properties.nativeJpeg());
		ExecutorService threads = Executors.newFixedThreadPool(properties.effectiveThreads());
		try {
			List<Future<String>> results = new ArrayList<>();
			for (int i = 1; i < args.length; i++) {
				Path file = Path.of(args[i]);
				results.add(threads
					.submit(() -> file.getFileName() + " " + describe(thumbnailer.make(Files.readAllBytes(file)))));
			}
			for (Future<String> result : results) {
				System.out.println(result.get());
			}
		}
		finally {
			threads.shutdown();
		}
		Reference.reachabilityFence(live);
	}

	private static String describe(Thumbnail thumbnail) throws Exception {
		if (thumbnail instanceof Thumbnail.Refused refused) {
			return "REFUSED " + refused.status().value() + " " + refused.message();
		}
		java.awt.image.BufferedImage image = javax.imageio.ImageIO
			.read(new java.io.ByteArrayInputStream(((Thumbnail.Image) thumbnail).jpeg()));
		return "OK " + image.getWidth() + "x" + image.getHeight();
	}

}
