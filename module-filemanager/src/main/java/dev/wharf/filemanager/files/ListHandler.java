package dev.wharf.filemanager.files;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.wharf.core.security.MountAccess;
import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.JsonBody;
import dev.wharf.filemanager.http.Query;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.core.SerializableString;

/**
 * {@code GET /api/files/ls?path=}: a folder's entries as
 * {@code {"status":"ok","results":[{"name","type","size","time"}…],"permissions":{…}}},
 * sorted by name, with an entity tag and {@code 304} on {@code If-None-Match}.
 * {@code type} is {@code file} or {@code directory} only: entries that are neither
 * (devices, sockets, links leading out of the mount or nowhere) cannot be used through
 * Wharf and are not listed. {@code time} is the last modification in milliseconds.
 * Nothing host-specific (owner, inode) is ever included. At the top level ({@code /}) the
 * entries are the mounts the user may read, with time 0.
 */
public final class ListHandler implements AuthenticatedHandler {

	private static final Location TOP = new Location(StoragePath.root(), null, null, StoragePath.root(),
			MountAccess.READ_ONLY);

	private static final Comparator<FileEntry> BY_NAME = Comparator.comparing(FileEntry::name);

	private final MountTree tree;

	private final int maxEntries;

	/**
	 * Creates the handler.
	 * @param tree the mounts
	 * @param maxEntries the most entries a listing may have; a larger folder is refused
	 * (413) rather than held in memory
	 */
	public ListHandler(MountTree tree, int maxEntries) {
		this.tree = tree;
		this.maxEntries = maxEntries;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Caller caller) {
		String path = new Query(exchange.getRequest().getURI().getRawQuery()).optional("path");
		Location location = this.tree.locate(caller, (path != null) ? path : "/");
		if (location.isTop()) {
			return ApiResponses.jsonWithEtag(exchange, top(this.tree.visible(caller.user())));
		}
		return location.requireStorage()
			.list(location.path())
			.filter(entry -> entry.type() != EntryType.OTHER)
			.take(this.maxEntries + 1L)
			.collectList()
			.flatMap(entries -> {
				if (entries.size() > this.maxEntries) {
					return Mono.error(new ApiException(HttpStatus.CONTENT_TOO_LARGE,
							"Folder has more than " + this.maxEntries + " entries"));
				}
				return ApiResponses.jsonWithEtag(exchange, listing(entries, Permissions.of(location)));
			});
	}

	private static JsonBody listing(List<FileEntry> entries, SerializableString permissions) {
		List<FileEntry> sorted = entries;
		if (entries.size() > 1) {
			sorted = new ArrayList<>(entries);
			sorted.sort(BY_NAME);
		}
		List<FileEntry> ordered = sorted;
		return JsonBody.write(64 + entries.size() * 80, json -> {
			json.writeStartObject().writeStringProperty("status", "ok").writeArrayPropertyStart("results");
			for (FileEntry entry : ordered) {
				json.writeStartObject()
					.writeStringProperty("name", entry.name())
					.writeStringProperty("type", entry.isDirectory() ? "directory" : "file")
					.writeNumberProperty("size", entry.size())
					.writeNumberProperty("time", entry.lastModified().toEpochMilli())
					.writeEndObject();
			}
			json.writeEndArray().writeName("permissions").writeRawValue(permissions).writeEndObject();
		});
	}

	private static JsonBody top(List<Mount> mounts) {
		return JsonBody.write(64 + mounts.size() * 64, json -> {
			json.writeStartObject().writeStringProperty("status", "ok").writeArrayPropertyStart("results");
			for (Mount mount : mounts) {
				json.writeStartObject()
					.writeStringProperty("name", mount.name())
					.writeStringProperty("type", "directory")
					.writeNumberProperty("size", 0)
					.writeNumberProperty("time", 0)
					.writeEndObject();
			}
			json.writeEndArray().writeName("permissions").writeRawValue(Permissions.of(TOP)).writeEndObject();
		});
	}

}
