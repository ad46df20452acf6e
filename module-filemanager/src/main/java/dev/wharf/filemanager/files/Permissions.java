package dev.wharf.filemanager.files;

import dev.wharf.core.security.MountAccess;
import dev.wharf.filemanager.http.JsonBody;
import tools.jackson.core.SerializableString;

/**
 * The {@code permissions} object of a listing, in Filestash's names, precomputed for the three cases
 * there are: the top level (nothing can change), a read-only mount and a writable one.
 */
final class Permissions {

	private static final SerializableString TOP = json(true, false);

	private static final SerializableString READ_ONLY = json(true, false);

	private static final SerializableString READ_WRITE = json(true, true);

	private Permissions() {
	}

	static SerializableString of(Location location) {
		if (location.isTop()) {
			return TOP;
		}
		return (location.access() == MountAccess.READ_WRITE) ? READ_WRITE : READ_ONLY;
	}

	private static SerializableString json(boolean read, boolean write) {
		return JsonBody.raw(256, json -> json.writeStartObject()
			.writeBooleanProperty("can_read", read)
			.writeBooleanProperty("can_create_file", write)
			.writeBooleanProperty("can_create_directory", write)
			.writeBooleanProperty("can_rename", write)
			.writeBooleanProperty("can_move", write)
			.writeBooleanProperty("can_upload", write)
			.writeBooleanProperty("can_delete", write)
			.writeBooleanProperty("can_share", false)
			.writeEndObject());
	}

}
