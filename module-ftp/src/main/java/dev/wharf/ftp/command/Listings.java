package dev.wharf.ftp.command;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import dev.wharf.core.mounts.UserMount;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import org.jspecify.annotations.Nullable;

/**
 * The lines of directory listings: {@code LIST} (the {@code ls -l} form clients parse),
 * {@code NLST} (names) and the facts of {@code MLSD}/{@code MLST} (RFC 3659). Times are
 * in UTC. Names come from the storage layer, which never lists a name with a control
 * character, so a name cannot break a line.
 */
final class Listings {

	/** The facts Wharf offers, in the spelling {@code OPTS MLST} keeps. */
	static final List<String> FACTS = List.of("Type", "Size", "Modify", "Perm");

	private static final DateTimeFormatter FACT_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	/** Strict: a 31st of February or an hour 24 is refused, not moved to a valid date. */
	private static final DateTimeFormatter PARSED_TIME = DateTimeFormatter.ofPattern("uuuuMMddHHmmss", Locale.ROOT)
		.withResolverStyle(ResolverStyle.STRICT);

	private static final Pattern TIME_VALUE = Pattern.compile("[0-9]{14}(\\.[0-9]{1,9})?");

	private static final DateTimeFormatter RECENT = DateTimeFormatter.ofPattern("MMM dd HH:mm", Locale.ENGLISH)
		.withZone(ZoneOffset.UTC);

	private static final DateTimeFormatter OLD = DateTimeFormatter.ofPattern("MMM dd  yyyy", Locale.ENGLISH)
		.withZone(ZoneOffset.UTC);

	private static final Duration HALF_YEAR = Duration.ofDays(183);

	private Listings() {
	}

	/**
	 * One entry with what the user may do with it.
	 *
	 * @param name the name to show
	 * @param entry the entry
	 * @param mount the mount it is in, for the user's rights and the mount's abilities
	 */
	record Listed(String name, FileEntry entry, UserMount mount) {
	}

	/** An {@code ls -l} line. */
	static String list(Listed listed, Instant now) {
		FileEntry entry = listed.entry();
		boolean writable = listed.mount().access().canWrite();
		StringBuilder line = new StringBuilder(80);
		if (entry.isDirectory()) {
			line.append(writable ? "drwxr-xr-x" : "dr-xr-xr-x");
		}
		else {
			line.append(writable ? "-rw-r--r--" : "-r--r--r--");
		}
		line.append(" 1 ftp ftp ");
		String size = Long.toString(entry.size());
		line.append(" ".repeat(Math.max(0, 13 - size.length()))).append(size).append(' ');
		Instant modified = entry.lastModified();
		boolean recent = Duration.between(modified, now).abs().compareTo(HALF_YEAR) < 0;
		line.append((recent ? RECENT : OLD).format(modified)).append(' ').append(listed.name()).append("\r\n");
		return line.toString();
	}

	/** An {@code NLST} line. */
	static String name(Listed listed) {
		return listed.name() + "\r\n";
	}

	/**
	 * The facts of an entry, as {@code MLSD} and {@code MLST} show them, ending with a
	 * space.
	 * @param listed the entry
	 * @param facts the chosen facts, from {@link #FACTS}
	 * @return such as {@code Type=file;Size=3;Modify=20260101120000;Perm=radfw; }
	 */
	static String facts(Listed listed, List<String> facts) {
		FileEntry entry = listed.entry();
		StringBuilder line = new StringBuilder(64);
		for (String fact : facts) {
			switch (fact) {
				case "Type" -> line.append("Type=")
					.append(entry.isFile() ? "file" : entry.isDirectory() ? "dir" : "OS.unix=other");
				case "Size" -> line.append("Size=").append(entry.size());
				case "Modify" -> line.append("Modify=").append(FACT_TIME.format(entry.lastModified()));
				case "Perm" -> line.append("Perm=").append(permissions(listed));
				default -> throw new IllegalArgumentException(fact);
			}
			line.append(';');
		}
		return line.append(' ').toString();
	}

	/** The time in the form of {@code MDTM} and {@code Modify=}. */
	static String time(Instant time) {
		return FACT_TIME.format(time);
	}

	/**
	 * Reads a time in the form of {@code MDTM} and {@code Modify=} (RFC 3659 section
	 * 2.3), UTC, with optional fractions of a second, which are kept.
	 * @param text such as {@code 20240131235959} or {@code 20240131235959.123}
	 * @return the time, or {@code null} if the text is not such a time or names no real
	 * date
	 */
	static @Nullable Instant parseTime(String text) {
		if (!TIME_VALUE.matcher(text).matches()) {
			return null;
		}
		try {
			Instant whole = LocalDateTime.parse(text.substring(0, 14), PARSED_TIME).toInstant(ZoneOffset.UTC);
			if (text.length() == 14) {
				return whole;
			}
			String fraction = (text.substring(15) + "00000000").substring(0, 9);
			return whole.plusNanos(Long.parseLong(fraction));
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

	/**
	 * RFC 3659 section 7.5.5 permissions, from the user's rights and the mount's
	 * abilities.
	 */
	private static String permissions(Listed listed) {
		boolean writable = listed.mount().access().canWrite();
		Set<Capability> abilities = listed.mount().storage().capabilities();
		boolean canMove = abilities.contains(Capability.MOVE);
		StringBuilder perm = new StringBuilder(8);
		if (listed.entry().isDirectory()) {
			perm.append("el");
			if (writable) {
				perm.append("cp");
				if (abilities.contains(Capability.DIRECTORIES)) {
					perm.append('m');
				}
			}
		}
		else {
			perm.append('r');
			if (writable) {
				perm.append('w');
				if (abilities.contains(Capability.APPEND)) {
					perm.append('a');
				}
			}
		}
		if (writable && !listed.entry().path().isRoot()) {
			perm.append('d');
			if (canMove) {
				perm.append('f');
			}
		}
		return perm.toString();
	}

	/**
	 * The facts a session chose with {@code OPTS MLST}, or all of them.
	 * @param chosen the facts {@code OPTS MLST} named, or {@code null}
	 * @return the facts in Wharf's order
	 */
	static List<String> chosenFacts(@Nullable List<String> chosen) {
		return (chosen != null) ? FACTS.stream().filter(chosen::contains).toList() : FACTS;
	}

}
