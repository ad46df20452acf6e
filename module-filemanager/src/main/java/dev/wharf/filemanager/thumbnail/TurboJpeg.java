package dev.wharf.filemanager.thumbnail;

import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Function;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.NativeLongByReference;
import com.sun.jna.ptr.PointerByReference;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * libjpeg-turbo's TurboJPEG library ({@code libturbojpeg.so.0}, Debian's
 * {@code libturbojpeg0}) through JNA: decodes a JPEG already scaled down by 1/2, 1/4 or
 * 1/8 in the inverse DCT, so the full-size image is never made, and encodes a thumbnail,
 * both with SIMD. The JDK's own JPEG reader can only subsample the full-size image, which
 * costs several times as much.
 *
 * <p>
 * Memory safety: every buffer handed to the library is allocated here at least at the
 * size the call may fill (a decoded image's rows times its pitch, as passed to the call;
 * an encoded image at {@code tjBufSize} with {@code TJFLAG_NOREALLOC}). Progressive
 * images with more than 500 scans fail ({@code TJFLAG_LIMITSCANS}) instead of taking
 * minutes. The header is read and checked by the caller ({@link JpegFrame}) before
 * anything is decoded. The handles and buffers of a call are a workspace, kept for the
 * next call (at most one per CPU idle, with buffers of at most {@value #MAX_KEPT_BUFFER}
 * bytes; larger ones, handles that failed and workspaces past that are freed at once):
 * the thumbnail of a photo then allocates no native memory. A decoded image's buffer is
 * cleared before each decoding, so no pixel of an earlier image can show in another.
 * Blocking and CPU-bound: never call it on an event loop. Thread-safe: a workspace serves
 * one call at a time.
 */
final class TurboJpeg {

	/**
	 * The library's name, as JNA finds it ({@code libturbojpeg.so}, or its versioned
	 * {@code .so.0}).
	 */
	static final String LIBRARY = "turbojpeg";

	private static final Log logger = LogFactory.getLog(TurboJpeg.class);

	private static final int TJSAMP_420 = 2;

	/**
	 * Red, green and blue of a pixel in one int, as {@code TYPE_INT_RGB} holds them: B,
	 * G, R, X bytes in memory here.
	 */
	private static final int TJPF_INT_RGB = (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) ? 3 : 5;

	private static final int TJFLAG_NOREALLOC = 1024;

	private static final int TJFLAG_LIMITSCANS = 32768;

	private static final int TJERR_WARNING = 0;

	/**
	 * The largest buffer a workspace keeps between calls: a photo's file, its scaled
	 * pixels, its thumbnail.
	 */
	static final long MAX_KEPT_BUFFER = 1 << 20;

	private static final Object LOCK = new Object();

	private static @Nullable TurboJpeg installed;

	private static boolean looked;

	private final Api api;

	private final BlockingQueue<Workspace> idle = new ArrayBlockingQueue<>(
			Math.max(1, Runtime.getRuntime().availableProcessors()));

	private TurboJpeg(Api api) {
		this.api = api;
	}

	/**
	 * The library installed on this machine, loaded once.
	 * @return it, or {@code null} if it is not installed (logged once)
	 */
	static @Nullable TurboJpeg installed() {
		synchronized (LOCK) {
			if (!looked) {
				looked = true;
				installed = load(LIBRARY);
				if (installed == null) {
					logger.info("libturbojpeg is not installed (Debian and Ubuntu: libturbojpeg0): JPEG thumbnails are "
							+ "decoded at full size by ImageIO, which takes several times the CPU");
				}
			}
			return installed;
		}
	}

	/**
	 * Loads a library with the TurboJPEG API.
	 * @param name the library's name
	 * @return it, or {@code null} if there is no such library or it lacks the API
	 */
	static @Nullable TurboJpeg load(String name) {
		try {
			TurboJpeg library = new TurboJpeg(Native.load(name, Api.class));
			// Fails here, not in a request, if the library lacks the functions.
			Pointer handle = library.api.tjInitDecompress();
			if (handle == null) {
				return null;
			}
			library.api.tjDestroy(handle);
			return library;
		}
		catch (LinkageError | RuntimeException ex) {
			logger.debug("No TurboJPEG library '" + name + "'", ex);
			return null;
		}
	}

	/**
	 * Decodes a JPEG scaled down, as {@code TYPE_INT_RGB} pixels in native memory, and
	 * hands them to a function that must not keep them: the memory serves the next call
	 * once it returns.
	 * @param jpeg the file's bytes
	 * @param width the scaled width: the image's width times a scaling factor the library
	 * has, rounded up
	 * @param height the scaled height, likewise
	 * @param use what to make of the pixels ({@code width} a row)
	 * @param <T> what it makes
	 * @return what it made, or {@code null} if the library failed (a warning, such as a
	 * truncated file whose end is grey, is no failure)
	 */
	<T> @Nullable T decode(byte[] jpeg, int width, int height, Function<IntBuffer, T> use) {
		long count = (long) width * height;
		if (width <= 0 || height <= 0 || count > Integer.MAX_VALUE / 4) {
			throw new IllegalArgumentException("Cannot decode to " + width + " x " + height + " pixels");
		}
		Workspace workspace = take();
		try {
			Pointer handle = workspace.decompressor();
			if (handle == null) {
				return null;
			}
			Memory source = workspace.source.of(jpeg.length);
			source.write(0, jpeg, 0, jpeg.length);
			// The library writes at most height rows of pitch bytes (it picks the largest
			// scaled size within these).
			Memory pixels = workspace.pixels.of(count * 4);
			pixels.clear(count * 4);
			int status = this.api.tjDecompress2(handle, source, new NativeLong(jpeg.length), pixels, width, width * 4,
					height, TJPF_INT_RGB, TJFLAG_LIMITSCANS);
			if (status != 0 && this.api.tjGetErrorCode(handle) != TJERR_WARNING) {
				logger.debug("TurboJPEG could not decode an image: " + this.api.tjGetErrorStr2(handle));
				workspace.dropDecompressor();
				return null;
			}
			return use.apply(pixels.getByteBuffer(0, count * 4).order(ByteOrder.nativeOrder()).asIntBuffer());
		}
		finally {
			give(workspace);
		}
	}

	/**
	 * Encodes {@code TYPE_INT_RGB} pixels as a JPEG with 4:2:0 chroma subsampling.
	 * @param pixels the pixels, {@code width} a row
	 * @param width the width
	 * @param height the height
	 * @param quality 1 to 100
	 * @return the JPEG, or {@code null} if the library failed
	 */
	byte @Nullable [] encode(int[] pixels, int width, int height, int quality) {
		if (width <= 0 || height <= 0 || (long) width * height != pixels.length) {
			throw new IllegalArgumentException(pixels.length + " pixels are not " + width + " x " + height);
		}
		long capacity = this.api.tjBufSize(width, height, TJSAMP_420).longValue();
		if (capacity <= 0) {
			return null;
		}
		Workspace workspace = take();
		try {
			Pointer handle = workspace.compressor();
			if (handle == null) {
				return null;
			}
			Memory source = workspace.rgb.of(4L * pixels.length);
			source.write(0, pixels, 0, pixels.length);
			Memory output = workspace.encoded.of(capacity);
			PointerByReference jpeg = new PointerByReference(output);
			NativeLongByReference size = new NativeLongByReference(new NativeLong(capacity));
			// NOREALLOC: the library writes into our buffer, sized for the worst case,
			// and never swaps in its own.
			if (this.api.tjCompress2(handle, source, width, width * 4, height, TJPF_INT_RGB, jpeg, size, TJSAMP_420,
					quality, TJFLAG_NOREALLOC) != 0) {
				logger.debug("TurboJPEG could not encode a thumbnail: " + this.api.tjGetErrorStr2(handle));
				workspace.dropCompressor();
				return null;
			}
			long length = size.getValue().longValue();
			if (!output.equals(jpeg.getValue()) || length <= 0 || length > capacity) {
				return null;
			}
			return output.getByteArray(0, (int) length);
		}
		finally {
			give(workspace);
		}
	}

	/** An idle workspace, or a new one. */
	private Workspace take() {
		Workspace workspace = this.idle.poll();
		return (workspace != null) ? workspace : new Workspace();
	}

	/**
	 * Keeps a workspace for the next call, its large buffers freed, or frees it all if
	 * enough are kept.
	 */
	private void give(Workspace workspace) {
		workspace.trim();
		if (!this.idle.offer(workspace)) {
			workspace.close();
		}
	}

	/** Workspaces kept idle, for tests. */
	int idleWorkspaces() {
		return this.idle.size();
	}

	/**
	 * The handles and buffers of one call at a time. Not thread-safe: taken from the idle
	 * ones by one call and given back when it returns.
	 */
	private final class Workspace implements AutoCloseable {

		final Buffer source = new Buffer();

		final Buffer pixels = new Buffer();

		final Buffer rgb = new Buffer();

		final Buffer encoded = new Buffer();

		private @Nullable Pointer decompressor;

		private @Nullable Pointer compressor;

		@Nullable Pointer decompressor() {
			if (this.decompressor == null) {
				this.decompressor = TurboJpeg.this.api.tjInitDecompress();
			}
			return this.decompressor;
		}

		@Nullable Pointer compressor() {
			if (this.compressor == null) {
				this.compressor = TurboJpeg.this.api.tjInitCompress();
			}
			return this.compressor;
		}

		/**
		 * Frees the decompressor after a failure, rather than trusting its state to the
		 * next image.
		 */
		void dropDecompressor() {
			Pointer handle = this.decompressor;
			this.decompressor = null;
			if (handle != null) {
				TurboJpeg.this.api.tjDestroy(handle);
			}
		}

		/** Frees the compressor after a failure. */
		void dropCompressor() {
			Pointer handle = this.compressor;
			this.compressor = null;
			if (handle != null) {
				TurboJpeg.this.api.tjDestroy(handle);
			}
		}

		/** Frees the buffers larger than are kept. */
		void trim() {
			this.source.trim();
			this.pixels.trim();
			this.rgb.trim();
			this.encoded.trim();
		}

		@Override
		public void close() {
			dropDecompressor();
			dropCompressor();
			this.source.free();
			this.pixels.free();
			this.rgb.free();
			this.encoded.free();
		}

	}

	/**
	 * Native memory that grows to the largest size asked since it was last freed. Not
	 * thread-safe.
	 */
	private static final class Buffer {

		private @Nullable Memory memory;

		/** This buffer, at least {@code size} bytes (at least one). */
		Memory of(long size) {
			Memory memory = this.memory;
			if (memory == null || memory.size() < size) {
				free();
				memory = new Memory(Math.max(1, size));
				this.memory = memory;
			}
			return memory;
		}

		void trim() {
			Memory memory = this.memory;
			if (memory != null && memory.size() > MAX_KEPT_BUFFER) {
				free();
			}
		}

		void free() {
			Memory memory = this.memory;
			this.memory = null;
			if (memory != null) {
				memory.close();
			}
		}

	}

	/**
	 * The functions of the TurboJPEG API used here, as in {@code turbojpeg.h} (API
	 * version 2; kept in 3).
	 */
	interface Api extends Library {

		@Nullable Pointer tjInitDecompress();

		@Nullable Pointer tjInitCompress();

		int tjDestroy(Pointer handle);

		int tjDecompress2(Pointer handle, Pointer jpeg, NativeLong size, Pointer destination, int width, int pitch,
				int height, int pixelFormat, int flags);

		int tjCompress2(Pointer handle, Pointer source, int width, int pitch, int height, int pixelFormat,
				PointerByReference jpeg, NativeLongByReference size, int subsampling, int quality, int flags);

		NativeLong tjBufSize(int width, int height, int subsampling);

		int tjGetErrorCode(Pointer handle);

		String tjGetErrorStr2(Pointer handle);

	}

}
