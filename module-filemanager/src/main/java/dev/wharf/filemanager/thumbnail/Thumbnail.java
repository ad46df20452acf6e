package dev.wharf.filemanager.thumbnail;

import org.springframework.http.HttpStatus;

/**
 * The outcome of making a thumbnail: a JPEG, or a reason why the file gets none (also
 * cached).
 */
public sealed interface Thumbnail {

	/** Bytes this outcome costs in the cache. */
	int weight();

	/**
	 * A JPEG thumbnail.
	 *
	 * @param jpeg its bytes
	 */
	record Image(byte[] jpeg) implements Thumbnail {

		@Override
		public int weight() {
			return this.jpeg.length + 64;
		}

	}

	/**
	 * The file gets no thumbnail.
	 *
	 * @param status the HTTP status to answer (415 not an image, 422 unusable image)
	 * @param message why, for the client
	 */
	record Refused(HttpStatus status, String message) implements Thumbnail {

		@Override
		public int weight() {
			return 64 + this.message.length();
		}

	}

}
