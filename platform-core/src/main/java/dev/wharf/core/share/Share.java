package dev.wharf.core.share;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.wharf.core.session.Secrets;
import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;

/**
 * A share link: a folder or file of one mount that visitors of {@code /s/<id>} reach
 * without an account, with the rights and limits its creator gave it. The id is made by
 * the server ({@link #newId()}), never by a client.
 *
 * @param id the link's id, {@value #ID_CHARS} base64url characters of secure randomness
 * @param creator the name of the user who made it; it works only while they still hold
 * the rights it grants
 * @param mount the mount's name
 * @param path the shared folder or file inside the mount
 * @param rights what visitors may do
 * @param passwordHash the hash visitors' passwords are checked against, or {@code null}
 * for none
 * @param expires when it stops working, or {@code null} for never
 * @param maxDownloads how many downloads it allows, 0 for no limit
 * @param downloads how many it has served
 * @param created when it was made
 */
public record Share(String id, String creator, String mount, StoragePath path, ShareRights rights,
		@Nullable String passwordHash, @Nullable Instant expires, int maxDownloads, int downloads, Instant created) {

	/** Random bytes in an id: 144 bits. */
	public static final int ID_BYTES = 18;

	/** Characters in an id. */
	public static final int ID_CHARS = 24;

	private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{" + ID_CHARS + "}");

	public Share {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(creator, "creator");
		Objects.requireNonNull(mount, "mount");
		Objects.requireNonNull(path, "path");
		Objects.requireNonNull(rights, "rights");
		Objects.requireNonNull(created, "created");
		if (maxDownloads < 0 || downloads < 0) {
			throw new IllegalArgumentException("Download counts cannot be negative");
		}
	}

	/** A new id from a secure random source. */
	public static String newId() {
		return Secrets.random(ID_BYTES);
	}

	/**
	 * Whether a string has the form of an id, so others are refused without a lookup.
	 * @param id what a client sent
	 * @return whether it could be an id
	 */
	public static boolean isWellFormedId(String id) {
		return ID.matcher(id).matches();
	}

	/** Whether visitors must give a password. */
	public boolean hasPassword() {
		return this.passwordHash != null;
	}

	/**
	 * Whether it has expired at a time.
	 * @param now the time
	 * @return whether its expiry is at or before then
	 */
	public boolean isExpiredAt(Instant now) {
		Instant expires = this.expires;
		return expires != null && !now.isBefore(expires);
	}

	/** Whether its downloads are used up. */
	public boolean isUsedUp() {
		return this.maxDownloads > 0 && this.downloads >= this.maxDownloads;
	}

	/**
	 * A short form of the id for logs and audit lines: enough to tell shares apart, too
	 * little to use one.
	 * @return the first 8 characters
	 */
	public String label() {
		return this.id.substring(0, 8);
	}

	/**
	 * The same share with another download count.
	 * @param count the count
	 * @return the share
	 */
	public Share withDownloads(int count) {
		return new Share(this.id, this.creator, this.mount, this.path, this.rights, this.passwordHash, this.expires,
				this.maxDownloads, count, this.created);
	}

	@Override
	public String toString() {
		return "Share[" + label() + "…, " + this.mount + ":" + this.path + ", " + this.rights.configName() + ", by "
				+ this.creator + "]";
	}

}
