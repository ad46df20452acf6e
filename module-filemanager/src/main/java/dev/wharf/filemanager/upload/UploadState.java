package dev.wharf.filemanager.upload;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.StoragePath;

/**
 * What is known about a resumable upload from its creation, stored in the mount beside
 * its data as a few {@code key=value} lines (no value can hold a line break: paths refuse
 * control characters, headers cannot carry them). The offset is not stored: it is the sum
 * of the chunks written so far, so it can never disagree with the data.
 *
 * @param id the upload's random id
 * @param user who started it; nobody else can see or continue it
 * @param target where the file goes once complete, inside the mount
 * @param length its final size in bytes
 * @param created when it was created
 * @param metadata the client's {@code Upload-Metadata} header as sent, or {@code ""}
 */
record UploadState(String id, String user, StoragePath target, long length, Instant created, String metadata) {

	private static final String MAGIC = "wharf-upload 1";

	UploadState {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(user, "user");
		Objects.requireNonNull(target, "target");
		Objects.requireNonNull(created, "created");
		Objects.requireNonNull(metadata, "metadata");
	}

	byte[] toBytes() {
		String text = MAGIC + "\nid=" + this.id + "\nuser=" + this.user + "\ntarget=" + this.target + "\nlength="
				+ this.length + "\ncreated=" + this.created.toEpochMilli() + "\nmetadata=" + this.metadata + "\n";
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static UploadState parse(byte[] bytes) {
		String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
		if (lines.length == 0 || !lines[0].equals(MAGIC)) {
			throw new InvalidContentException("Not an upload state file");
		}
		Map<String, String> values = new HashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int equals = lines[i].indexOf('=');
			if (equals > 0) {
				values.put(lines[i].substring(0, equals), lines[i].substring(equals + 1));
			}
		}
		try {
			return new UploadState(require(values, "id"), require(values, "user"),
					StoragePath.parse(require(values, "target")), Long.parseLong(require(values, "length")),
					Instant.ofEpochMilli(Long.parseLong(require(values, "created"))),
					values.getOrDefault("metadata", ""));
		}
		catch (NumberFormatException ex) {
			throw new InvalidContentException("Corrupt upload state file", ex);
		}
	}

	private static String require(Map<String, String> values, String key) {
		String value = values.get(key);
		if (value == null) {
			throw new InvalidContentException("Upload state file has no " + key);
		}
		return value;
	}

}
