package dev.wharf.core.storage.mount;

import java.util.Objects;

import dev.wharf.core.storage.Storage;

/**
 * A named, configured storage that protocols refer to by name.
 *
 * @param name the mount's name, as in {@code wharf.storage.mounts.<name>}
 * @param type the backend type, such as {@code local}
 * @param storage the backend, already instrumented with metrics
 */
public record Mount(String name, String type, Storage storage) {

	public Mount {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(storage, "storage");
	}

}
