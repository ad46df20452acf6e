package dev.wharf.filemanager.files;

import dev.wharf.core.security.MountAccess;
import dev.wharf.filemanager.http.JsonWriter;

/**
 * The {@code permissions} object of a listing, in Filestash's names, precomputed for the three cases
 * there are: the top level (nothing can change), a read-only mount and a writable one.
 */
final class Permissions {

	private static final byte[] TOP = json(true, false);

	private static final byte[] READ_ONLY = json(true, false);

	private static final byte[] READ_WRITE = json(true, true);

	private Permissions() {
	}

	static byte[] of(Location location) {
		if (location.isTop()) {
			return TOP;
		}
		return (location.access() == MountAccess.READ_WRITE) ? READ_WRITE : READ_ONLY;
	}

	private static byte[] json(boolean read, boolean write) {
		JsonWriter json = new JsonWriter(256);
		json.beginObject()
			.name("can_read").value(read)
			.name("can_create_file").value(write)
			.name("can_create_directory").value(write)
			.name("can_rename").value(write)
			.name("can_move").value(write)
			.name("can_upload").value(write)
			.name("can_delete").value(write)
			.name("can_share").value(false)
			.endObject();
		return json.toByteArray();
	}

}
