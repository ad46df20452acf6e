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
import dev.wharf.filemanager.http.JsonWriter;
import dev.wharf.filemanager.http.Query;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/files/ls?path=}: a folder's entries as
 * {@code {"status":"ok","results":[{"name","type","size","time"}…],"permissions":{…}}}, sorted by name,
 * with an entity tag and {@code 304} on {@code If-None-Match}. {@code type} is {@code file} or
 * {@code directory} only: entries that are neither (devices, sockets, links leading out of the mount or
 * nowhere) cannot be used through Wharf and are not listed. {@code time} is the last modification in
 * milliseconds. Nothing host-specific (owner, inode) is ever included. At the top level ({@code /}) the
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
	 * @param maxEntries the most entries a listing may have; a larger folder is refused (413) rather than
	 * held in memory
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

	private static JsonWriter listing(List<FileEntry> entries, byte[] permissions) {
		if (entries.size() > 1) {
			entries = new ArrayList<>(entries);
			entries.sort(BY_NAME);
		}
		JsonWriter json = new JsonWriter(64 + entries.size() * 80);
		json.beginObject().name("status").value("ok").name("results").beginArray();
		for (FileEntry entry : entries) {
			json.beginObject()
				.name("name").value(entry.name())
				.name("type").value(entry.isDirectory() ? "directory" : "file")
				.name("size").value(entry.size())
				.name("time").value(entry.lastModified().toEpochMilli())
				.endObject();
		}
		json.endArray().name("permissions").rawValue(permissions).endObject();
		return json;
	}

	private static JsonWriter top(List<Mount> mounts) {
		JsonWriter json = new JsonWriter(64 + mounts.size() * 64);
		json.beginObject().name("status").value("ok").name("results").beginArray();
		for (Mount mount : mounts) {
			json.beginObject()
				.name("name").value(mount.name())
				.name("type").value("directory")
				.name("size").value(0)
				.name("time").value(0)
				.endObject();
		}
		json.endArray().name("permissions").rawValue(Permissions.of(TOP)).endObject();
		return json;
	}

}
