package dev.wharf.filemanager.files;

import dev.wharf.core.security.MountAccess;
import dev.wharf.filemanager.http.JsonBody;
import tools.jackson.core.SerializableString;

/**
 * The {@code permissions} object of a listing, in Filestash's names, precomputed for the
 * cases there are: the top level (nothing can change), a read-only mount and a writable
 * one, each shareable or not (a mount that logs in as each user cannot be reached by a
 * share's visitors), and a share link's folder (never shared further).
 */
final class Permissions {

	private static final SerializableString TOP = json(true, false, false);

	private static final SerializableString READ_ONLY = json(true, false, false);

	private static final SerializableString READ_WRITE = json(true, true, false);

	private static final SerializableString READ_ONLY_SHAREABLE = json(true, false, true);

	private static final SerializableString READ_WRITE_SHAREABLE = json(true, true, true);

	private Permissions() {
	}

	static SerializableString of(Location location) {
		if (location.isTop()) {
			return TOP;
		}
		boolean write = location.access() == MountAccess.READ_WRITE;
		if (location.isShared() || location.requireMount().storage().needsUserCredentials()) {
			return write ? READ_WRITE : READ_ONLY;
		}
		return write ? READ_WRITE_SHAREABLE : READ_ONLY_SHAREABLE;
	}

	private static SerializableString json(boolean read, boolean write, boolean share) {
		return JsonBody.raw(256,
				json -> json.writeStartObject()
					.writeBooleanProperty("can_read", read)
					.writeBooleanProperty("can_create_file", write)
					.writeBooleanProperty("can_create_directory", write)
					.writeBooleanProperty("can_rename", write)
					.writeBooleanProperty("can_move", write)
					.writeBooleanProperty("can_upload", write)
					.writeBooleanProperty("can_delete", write)
					.writeBooleanProperty("can_share", share)
					.writeEndObject());
	}

}
