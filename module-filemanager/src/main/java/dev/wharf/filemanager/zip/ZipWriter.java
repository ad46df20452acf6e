package dev.wharf.filemanager.zip;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.Deflater;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.FolderChain;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.web.MediaTypeRegistry;
import org.apache.commons.compress.archivers.zip.UnixStat;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream.UnicodeExtraFieldPolicy;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * Writes a zip of files and folders to a stream, on a worker thread (it blocks on the
 * storage and on the client). A file or folder that cannot be read does not break the
 * download: it is left out (or, if it failed part-way, kept incomplete) and named in a
 * final {@value #ERROR_LOG} entry; so is a link back into a folder the walk is in (a link
 * loop, see {@link FolderChain}), which would make the zip endless. Entry names are the
 * validated names of the storage, joined with {@code /}: never absolute, never
 * {@code ..}, never a backslash. Files whose content is already compressed are stored
 * without compressing again. Large files and archives use ZIP64 automatically.
 *
 * <p>
 * Names are UTF-8 with the language encoding flag set, and every entry says it was made
 * on Unix (with mode {@code 644} for files and {@code 755} for folders) and carries the
 * Info-ZIP Unicode Path extra field: Info-ZIP's {@code unzip} converts the names of
 * entries made on MS-DOS from the DOS code page whatever the flag says, which garbles
 * every non-ASCII name, and older tools read only the extra field.
 * {@link java.util.zip.ZipOutputStream} can set neither the host nor the mode, so the zip
 * is written with Commons Compress.
 */
final class ZipWriter {

	/** The entry that lists what could not be added. */
	static final String ERROR_LOG = "error.log";

	private static final Duration STORAGE_TIMEOUT = Duration.ofMinutes(5);

	private static final int FILE_MODE = 0644;

	private static final int FOLDER_MODE = 0755;

	private final List<ZipItem> items;

	private final List<String> errors = new ArrayList<>();

	ZipWriter(List<ZipItem> items) {
		this.items = items;
	}

	void write(OutputStream out) throws IOException {
		try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(out)) {
			zip.setEncoding(StandardCharsets.UTF_8.name());
			zip.setUseLanguageEncodingFlag(true);
			zip.setCreateUnicodeExtraFields(UnicodeExtraFieldPolicy.ALWAYS);
			zip.setUseZip64(Zip64Mode.AsNeeded);
			for (ZipItem item : this.items) {
				add(zip, item, item.entry(), item.name(), null);
			}
			if (!this.errors.isEmpty()) {
				zip.setLevel(Deflater.BEST_SPEED);
				zip.putArchiveEntry(entry(ERROR_LOG, System.currentTimeMillis(), UnixStat.FILE_FLAG | FILE_MODE));
				for (String error : this.errors) {
					zip.write((error + "\n").getBytes(StandardCharsets.UTF_8));
				}
				zip.closeArchiveEntry();
			}
		}
	}

	private static ZipArchiveEntry entry(String name, long time, int unixMode) {
		ZipArchiveEntry entry = new ZipArchiveEntry(name);
		entry.setTime(time);
		entry.setUnixMode(unixMode);
		return entry;
	}

	private void add(ZipArchiveOutputStream zip, ZipItem item, FileEntry entry, String name,
			@Nullable FolderChain outer) throws IOException {
		if (entry.type() == EntryType.DIRECTORY) {
			addFolder(zip, item, entry, name, (outer != null) ? outer.enter(entry) : FolderChain.start(entry));
		}
		else if (entry.type() == EntryType.FILE) {
			addFile(zip, item.storage(), entry, name);
		}
		else {
			this.errors.add(name + ": skipped, neither a file nor a folder");
		}
	}

	private void addFolder(ZipArchiveOutputStream zip, ZipItem item, FileEntry folder, String name, FolderChain chain)
			throws IOException {
		zip.putArchiveEntry(entry(name + "/", folder.lastModified().toEpochMilli(), UnixStat.DIR_FLAG | FOLDER_MODE));
		zip.closeArchiveEntry();
		List<FileEntry> children;
		try {
			children = item.storage().list(folder.path()).collectList().block(STORAGE_TIMEOUT);
		}
		catch (RuntimeException ex) {
			this.errors.add(name + "/: cannot list the folder: " + message(ex));
			return;
		}
		if (children == null) {
			return;
		}
		children = new ArrayList<>(children);
		children.sort(Comparator.comparing(FileEntry::name));
		for (FileEntry child : children) {
			String childName = name + "/" + child.name();
			FileEntry loop = chain.loopsTo(child);
			if (loop != null) {
				this.errors.add(childName + ": skipped, a link loop: it leads back to " + nameInZip(item, loop) + "/");
			}
			else {
				add(zip, item, child, childName, chain);
			}
		}
	}

	/** The name in the zip of a folder the walk of an item went into. */
	private static String nameInZip(ZipItem item, FileEntry folder) {
		StoragePath below = folder.path().relativeTo(item.entry().path());
		return below.isRoot() ? item.name() : item.name() + below;
	}

	private void addFile(ZipArchiveOutputStream zip, Storage storage, FileEntry file, String name) throws IOException {
		StoragePath path = file.path();
		try (Stream<DataBuffer> content = storage.read(path, ByteRange.all())
			.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
			.toStream(4)) {
			Iterator<DataBuffer> buffers = content.iterator();
			DataBuffer first;
			try {
				// The first buffer is read before the entry is started, so a file that
				// cannot be opened
				// leaves no empty entry behind.
				first = buffers.hasNext() ? buffers.next() : null;
			}
			catch (RuntimeException ex) {
				this.errors.add(name + ": cannot read the file: " + message(ex));
				return;
			}
			ZipArchiveEntry entry = entry(name, file.lastModified().toEpochMilli(), UnixStat.FILE_FLAG | FILE_MODE);
			// Streamed, so the headers get the sizes of the data that was actually
			// written. The size announced
			// here, and zlib's worst case for the compressed size, only decide whether
			// the local header needs a
			// ZIP64 field, which cannot be added once the entry has started.
			entry.setSize(file.size());
			entry.setCompressedSize(worstCaseDeflated(file.size()));
			zip.setLevel(isCompressed(name) ? Deflater.NO_COMPRESSION : Deflater.BEST_SPEED);
			zip.putArchiveEntry(entry);
			try {
				DataBuffer next = first;
				while (next != null) {
					try {
						writeTo(zip, next);
					}
					finally {
						DataBufferUtils.release(next);
					}
					next = buffers.hasNext() ? buffers.next() : null;
				}
			}
			catch (RuntimeException ex) {
				this.errors.add(name + ": reading failed part-way, the file in this zip is incomplete: " + message(ex));
			}
			zip.closeArchiveEntry();
		}
	}

	/**
	 * zlib's {@code deflateBound} for non-default parameters, the bound that holds at
	 * every level.
	 */
	private static long worstCaseDeflated(long size) {
		return size + (size >> 5) + (size >> 7) + (size >> 11) + 7;
	}

	private static void writeTo(OutputStream out, DataBuffer buffer) throws IOException {
		try (DataBuffer.ByteBufferIterator chunks = buffer.readableByteBuffers()) {
			while (chunks.hasNext()) {
				ByteBuffer chunk = chunks.next();
				if (chunk.hasArray()) {
					out.write(chunk.array(), chunk.arrayOffset() + chunk.position(), chunk.remaining());
				}
				else {
					byte[] copy = new byte[chunk.remaining()];
					chunk.get(copy);
					out.write(copy);
				}
			}
		}
	}

	/**
	 * Whether a file's type (core's registry, as the file manager and static sites send
	 * it) is compressed already.
	 */
	private static boolean isCompressed(String name) {
		return MediaTypeRegistry.isAlreadyCompressed(MediaTypeRegistry.defaults().forName(name));
	}

	private static String message(Throwable error) {
		Throwable cause = (error.getCause() != null && error instanceof IllegalStateException) ? error.getCause()
				: error;
		String message = cause.getMessage();
		return (message != null) ? message : cause.getClass().getSimpleName();
	}

}
