package dev.wharf.core.storage;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A file described and read at once from a backend that holds its bytes in memory (see
 * {@link Storage#readAtHand}).
 *
 * @param entry the file's entry; always a file
 * @param content its bytes, in order: read-only views of the backend's own memory, which
 * the holder must not modify (a file's content is immutable once written, so the views
 * stay valid after the file is replaced or deleted); nothing to release; their remaining
 * bytes add up to the entry's size
 */
public record HeldFile(FileEntry entry, List<ByteBuffer> content) {
}
