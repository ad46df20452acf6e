package dev.wharf.staticfiles.server;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;

import dev.wharf.core.storage.FileEntry;
import org.springframework.web.util.HtmlUtils;
import org.springframework.web.util.UriUtils;

/**
 * The HTML page listing a folder of a site (for sites with {@code listing: true}):
 * folders first, then files, by name, with sizes and modification times. Names are
 * escaped for HTML and encoded in links, so a file name can never inject markup.
 */
final class DirectoryListing {

	/** Most entries shown; a larger folder's page says how many were left out. */
	static final int MAX_ENTRIES = 10_000;

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
		.withZone(ZoneOffset.UTC);

	private DirectoryListing() {
	}

	/**
	 * Renders a page.
	 * @param title the folder's path as the client asked for it (decoded)
	 * @param entries the folder's visible entries, at most {@link #MAX_ENTRIES} + 1
	 * @param hasParent whether to link to {@code ../}
	 * @return the page, UTF-8
	 */
	static byte[] render(String title, List<FileEntry> entries, boolean hasParent) {
		boolean truncated = entries.size() > MAX_ENTRIES;
		List<FileEntry> shown = entries.stream()
			.limit(MAX_ENTRIES)
			.sorted(Comparator.comparing((FileEntry entry) -> !entry.isDirectory()).thenComparing(FileEntry::name))
			.toList();
		String escapedTitle = HtmlUtils.htmlEscape(title);
		StringBuilder html = new StringBuilder(256 + 128 * shown.size());
		html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Index of ")
			.append(escapedTitle)
			.append("</title></head>\n<body><h1>Index of ")
			.append(escapedTitle)
			.append("</h1>\n<table>\n");
		if (hasParent) {
			html.append("<tr><td><a href=\"../\">../</a></td><td></td><td></td></tr>\n");
		}
		for (FileEntry entry : shown) {
			String name = entry.name() + (entry.isDirectory() ? "/" : "");
			// "./" keeps a name such as "javascript:x" a relative path, never a scheme.
			html.append("<tr><td><a href=\"./")
				.append(UriUtils.encodePathSegment(entry.name(), StandardCharsets.UTF_8))
				.append(entry.isDirectory() ? "/" : "")
				.append("\">")
				.append(HtmlUtils.htmlEscape(name))
				.append("</a></td><td>")
				.append(TIME.format(entry.lastModified()))
				.append("</td><td>")
				.append(entry.isDirectory() ? "-" : Long.toString(entry.size()))
				.append("</td></tr>\n");
		}
		html.append("</table>\n");
		if (truncated) {
			html.append("<p>Only the first ").append(MAX_ENTRIES).append(" entries are shown.</p>\n");
		}
		html.append("</body></html>\n");
		return html.toString().getBytes(StandardCharsets.UTF_8);
	}

}
