package dev.wharf.filemanager.testsupport;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Reads zips the file manager sent, as a streaming client would, with
 * {@link ZipInputStream}.
 */
public final class Zips {

	private Zips() {
	}

	/**
	 * Every entry of a zip, in order.
	 * @param zip the zip's bytes
	 * @return each entry's content by its name
	 */
	public static Map<String, byte[]> entries(byte[] zip) throws IOException {
		Map<String, byte[]> entries = new LinkedHashMap<>();
		try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip), StandardCharsets.UTF_8)) {
			for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
				entries.put(entry.getName(), in.readAllBytes());
			}
		}
		return entries;
	}

}
