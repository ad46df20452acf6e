package dev.wharf.core.storage.s3;

import java.util.ArrayList;
import java.util.List;

/**
 * How to make one object out of several with a multipart upload while streaming as few
 * bytes through Wharf as S3's rules allow. S3 copies a byte range of an existing object
 * into a part without sending it ({@code UploadPartCopy}), but every part except the last
 * must be at least 5 MB, and a copied part at most 5 GB. So a source (or what is left of
 * one) of at least the minimum is copied on the server, in pieces of at most the copy
 * limit; smaller sources, and the start of a large source that follows them, are streamed
 * into one part until it reaches the streamed part size, after which the rest of that
 * source is copied again. Only the last part may be small. Resumable uploads' chunks are
 * usually one {@code segment-size} each, so most bytes are copied; a client that sent
 * many small pieces has those streamed.
 *
 * <p>
 * Immutable; thread-safe.
 */
final class ConcatenationPlan {

	private final List<PlannedPart> parts;

	private ConcatenationPlan(List<PlannedPart> parts) {
		this.parts = List.copyOf(parts);
	}

	/**
	 * Plans the parts.
	 * @param sizes each source's size, in order
	 * @param minPart the smallest part but the last (S3: 5 MB)
	 * @param streamedPart the size at which streamed bytes make a part; at least
	 * {@code minPart}
	 * @param maxCopyPart the largest copied part (S3: 5 GB); at least twice
	 * {@code minPart}
	 * @return the plan; no parts when every source is empty
	 */
	static ConcatenationPlan of(long[] sizes, long minPart, long streamedPart, long maxCopyPart) {
		List<PlannedPart> parts = new ArrayList<>();
		List<Slice> pending = new ArrayList<>();
		long pendingBytes = 0;
		for (int source = 0; source < sizes.length; source++) {
			long position = 0;
			while (position < sizes[source]) {
				long remaining = sizes[source] - position;
				long n;
				if (pendingBytes == 0 && remaining >= minPart) {
					n = Math.min(remaining, maxCopyPart);
					if (remaining - n > 0 && remaining - n < minPart) {
						// Leaves a tail that can still be copied on its own.
						n = remaining - minPart;
					}
					parts.add(new PlannedPart(parts.size() + 1, List.of(new Slice(source, position, n)), true));
				}
				else {
					n = Math.min(remaining, streamedPart - pendingBytes);
					pending.add(new Slice(source, position, n));
					pendingBytes += n;
					if (pendingBytes == streamedPart) {
						parts.add(new PlannedPart(parts.size() + 1, List.copyOf(pending), false));
						pending.clear();
						pendingBytes = 0;
					}
				}
				position += n;
			}
		}
		if (!pending.isEmpty()) {
			parts.add(new PlannedPart(parts.size() + 1, List.copyOf(pending), false));
		}
		return new ConcatenationPlan(parts);
	}

	/** The parts, in order. */
	List<PlannedPart> parts() {
		return this.parts;
	}

	/** Bytes that go through Wharf. */
	long streamedBytes() {
		return this.parts.stream().filter(part -> !part.copy()).mapToLong(PlannedPart::size).sum();
	}

	/**
	 * A byte range of one source.
	 *
	 * @param source the source's index
	 * @param offset the first byte
	 * @param length how many bytes
	 */
	record Slice(int source, long offset, long length) {
	}

	/**
	 * One part of the upload.
	 *
	 * @param number its number, from 1
	 * @param slices its bytes: one slice when copied, one or more when streamed
	 * @param copy whether S3 copies it ({@code UploadPartCopy}) rather than Wharf
	 * streaming it
	 */
	record PlannedPart(int number, List<Slice> slices, boolean copy) {

		/** Its size in bytes. */
		long size() {
			return this.slices.stream().mapToLong(Slice::length).sum();
		}

	}

}
