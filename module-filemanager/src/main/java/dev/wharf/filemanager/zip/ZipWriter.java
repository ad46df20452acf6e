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
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * Writes a zip of files and folders to a stream, on a worker thread (it blocks on the storage and on the
 * client). A file or folder that cannot be read does not break the download: it is left out (or, if it
 * failed part-way, kept incomplete) and named in a final {@value #ERROR_LOG} entry. Entry names are the
 * validated names of the storage, joined with {@code /}: never absolute, never {@code ..}, never a
 * backslash. Files whose content is already compressed are stored without compressing again. Large files
 * and archives use ZIP64 automatically.
 */
final class ZipWriter {

	/** The entry that lists what could not be added. */
	static final String ERROR_LOG = "error.log";

	private static final Duration STORAGE_TIMEOUT = Duration.ofMinutes(5);

	private static final Set<String> COMPRESSED = Set.of("jpg", "jpeg", "png", "gif", "webp", "heic", "avif", "mp3",
			"mp4", "m4a", "m4v", "mkv", "mov", "avi", "webm", "ogg", "opus", "flac", "zip", "gz", "tgz", "bz2", "xz",
			"zst", "7z", "rar", "jar", "war", "apk", "docx", "xlsx", "pptx", "odt", "ods", "odp", "pdf");

	private final List<ZipItem> items;

	private final List<String> errors = new ArrayList<>();

	ZipWriter(List<ZipItem> items) {
		this.items = items;
	}

	void write(OutputStream out) throws IOException {
		try (ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8)) {
			for (ZipItem item : this.items) {
				add(zip, item.storage(), item.entry(), item.name());
			}
			if (!this.errors.isEmpty()) {
				zip.setLevel(Deflater.BEST_SPEED);
				zip.putNextEntry(new ZipEntry(ERROR_LOG));
				for (String error : this.errors) {
					zip.write((error + "\n").getBytes(StandardCharsets.UTF_8));
				}
				zip.closeEntry();
			}
		}
	}

	private void add(ZipOutputStream zip, Storage storage, FileEntry entry, String name) throws IOException {
		if (entry.type() == EntryType.DIRECTORY) {
			addFolder(zip, storage, entry, name);
		}
		else if (entry.type() == EntryType.FILE) {
			addFile(zip, storage, entry, name);
		}
		else {
			this.errors.add(name + ": skipped, neither a file nor a folder");
		}
	}

	private void addFolder(ZipOutputStream zip, Storage storage, FileEntry folder, String name) throws IOException {
		ZipEntry entry = new ZipEntry(name + "/");
		entry.setTime(folder.lastModified().toEpochMilli());
		zip.putNextEntry(entry);
		zip.closeEntry();
		List<FileEntry> children;
		try {
			children = storage.list(folder.path()).collectList().block(STORAGE_TIMEOUT);
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
			add(zip, storage, child, name + "/" + child.name());
		}
	}

	private void addFile(ZipOutputStream zip, Storage storage, FileEntry file, String name) throws IOException {
		StoragePath path = file.path();
		try (Stream<DataBuffer> content = storage.read(path, ByteRange.all())
			.doOnDiscard(DataBuffer.class, DataBufferUtils::release)
			.toStream(4)) {
			Iterator<DataBuffer> buffers = content.iterator();
			DataBuffer first;
			try {
				// The first buffer is read before the entry is started, so a file that cannot be opened
				// leaves no empty entry behind.
				first = buffers.hasNext() ? buffers.next() : null;
			}
			catch (RuntimeException ex) {
				this.errors.add(name + ": cannot read the file: " + message(ex));
				return;
			}
			ZipEntry entry = new ZipEntry(name);
			entry.setTime(file.lastModified().toEpochMilli());
			zip.setLevel(isCompressed(name) ? Deflater.NO_COMPRESSION : Deflater.BEST_SPEED);
			zip.putNextEntry(entry);
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
			zip.closeEntry();
		}
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

	private static boolean isCompressed(String name) {
		int dot = name.lastIndexOf('.');
		return dot > 0 && COMPRESSED.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
	}

	private static String message(Throwable error) {
		Throwable cause = (error.getCause() != null && error instanceof IllegalStateException) ? error.getCause() : error;
		String message = cause.getMessage();
		return (message != null) ? message : cause.getClass().getSimpleName();
	}

}
