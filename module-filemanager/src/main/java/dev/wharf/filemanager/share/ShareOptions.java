package dev.wharf.filemanager.share;

import java.time.Instant;

import dev.wharf.core.share.ShareRights;
import dev.wharf.filemanager.http.ApiException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The body of {@code POST /api/share[/<id>]} in Filestash's names, checked: {@code path},
 * {@code password}, {@code expire} (ms since 1970), {@code can_read}, {@code can_upload},
 * {@code can_write} and {@code max_downloads}. A field left out keeps what a changed
 * share had (or the default of a new one); a bad value is a 400 that names the field.
 * Immutable.
 */
final class ShareOptions {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int MAX_PASSWORD = 1024;

	/** Most downloads a limit may name. */
	static final int MAX_DOWNLOADS = 1_000_000;

	private final JsonNode json;

	private ShareOptions(JsonNode json) {
		this.json = json;
	}

	/**
	 * Parses a body.
	 * @param body the request body
	 * @return the options
	 * @throws ApiException 400 if it is not a JSON object
	 */
	static ShareOptions parse(String body) {
		try {
			JsonNode json = JSON.readTree(body.isBlank() ? "{}" : body);
			if (json != null && json.isObject()) {
				return new ShareOptions(json);
			}
		}
		catch (JacksonException ex) {
			// Answered below.
		}
		throw ApiException.badRequest("The body must be a JSON object: {\"path\":…,\"password\":…,\"expire\":…,"
				+ "\"can_read\":…,\"can_upload\":…,\"can_write\":…,\"max_downloads\":…}");
	}

	/**
	 * The password of a proof body, {@code {"type":"password","value":…}}.
	 * @param body the request body
	 * @return the password given
	 * @throws ApiException 400 if the body is not such a proof
	 */
	static String proof(String body) {
		try {
			JsonNode json = JSON.readTree(body);
			if (json != null && json.isObject() && json.path("type").isString()
					&& json.path("type").stringValue().equals("password") && json.path("value").isString()) {
				return json.path("value").stringValue();
			}
		}
		catch (JacksonException ex) {
			// Answered below.
		}
		throw ApiException.badRequest("The proof must be {\"type\":\"password\",\"value\":\"…\"}");
	}

	boolean has(String field) {
		return this.json.has(field);
	}

	/** The path, or {@code null} if left out. */
	@Nullable String path() {
		JsonNode path = this.json.get("path");
		if (path == null || path.isNull()) {
			return null;
		}
		if (!path.isString()) {
			throw ApiException.badRequest("'path' must be a string");
		}
		return path.stringValue();
	}

	/**
	 * The rights the flags give.
	 * @param current the share's rights, or {@code null} for a new share (read-only by
	 * default)
	 * @return the rights
	 */
	ShareRights rights(@Nullable ShareRights current) {
		if (!has("can_read") && !has("can_upload") && !has("can_write")) {
			return (current != null) ? current : ShareRights.READ;
		}
		boolean read = flag("can_read");
		boolean upload = flag("can_upload");
		boolean write = flag("can_write");
		if (read && write) {
			return ShareRights.READ_WRITE;
		}
		if (read && !upload) {
			return ShareRights.READ;
		}
		if (!read && upload && !write) {
			return ShareRights.UPLOAD;
		}
		throw ApiException
			.badRequest("Choose what visitors may do: can_read (read-only), can_upload alone (upload-only), "
					+ "or can_read with can_write (read and write)");
	}

	/**
	 * The password.
	 * @return {@code null} to keep the share's (or have none on a new share), empty to
	 * remove it, else the new one
	 */
	@Nullable String password() {
		JsonNode password = this.json.get("password");
		if (password == null) {
			return null;
		}
		if (password.isNull()) {
			return "";
		}
		if (!password.isString() || password.stringValue().length() > MAX_PASSWORD) {
			throw ApiException
				.badRequest("'password' must be a string of at most " + MAX_PASSWORD + " characters, or null");
		}
		String value = password.stringValue();
		return value.equals(ShareHandlers.REDACTED) ? null : value;
	}

	/**
	 * The expiry.
	 * @param current the share's, or {@code null}
	 * @param now the time now: a new expiry must be later
	 * @return the expiry, or {@code null} for never
	 */
	@Nullable Instant expires(@Nullable Instant current, Instant now) {
		JsonNode expire = this.json.get("expire");
		if (expire == null) {
			return current;
		}
		if (expire.isNull()) {
			return null;
		}
		if (!expire.isIntegralNumber() || !expire.canConvertToLong() || expire.longValue() <= now.toEpochMilli()) {
			throw ApiException.badRequest("'expire' must be a time in the future, in milliseconds since 1970, or null");
		}
		return Instant.ofEpochMilli(expire.longValue());
	}

	/**
	 * The download limit.
	 * @param current the share's, or 0
	 * @return the limit, 0 for none
	 */
	int maxDownloads(int current) {
		JsonNode max = this.json.get("max_downloads");
		if (max == null) {
			return current;
		}
		if (max.isNull()) {
			return 0;
		}
		if (!max.isIntegralNumber() || !max.canConvertToInt() || max.intValue() < 0 || max.intValue() > MAX_DOWNLOADS) {
			throw ApiException
				.badRequest("'max_downloads' must be a whole number from 0 (no limit) to " + MAX_DOWNLOADS);
		}
		return max.intValue();
	}

	private boolean flag(String name) {
		JsonNode value = this.json.get(name);
		if (value == null || value.isNull()) {
			return false;
		}
		if (!value.isBoolean()) {
			throw ApiException.badRequest("'" + name + "' must be true or false");
		}
		return value.booleanValue();
	}

}
