package dev.wharf.filemanager.share;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

import dev.wharf.core.session.Secrets;
import dev.wharf.core.share.Share;
import dev.wharf.filemanager.http.Clients;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.web.server.ServerWebExchange;

/**
 * The cookie that proves a visitor gave a share link's password, one per link
 * ({@code proof_} and a digest of the id, so the id itself is not in the cookie's name).
 * Its value is a digest of the id and the password's stored hash: no replica needs a
 * shared key to check it, only someone who knows the hash (which never leaves the server)
 * can make one, and changing or removing the password ends every proof at once.
 * {@code HttpOnly}, {@code SameSite=Strict}, {@code Secure} under TLS, for the
 * application's whole path (the API and the page {@code /s/<id>}), kept until the browser
 * closes. Stateless.
 */
final class ShareProof {

	private static final String PREFIX = "proof_";

	private ShareProof() {
	}

	/**
	 * The cookie's name for a share.
	 * @param id the share's id
	 * @return such as {@code proof_Xy12…}
	 */
	static String name(String id) {
		return PREFIX + Secrets.digest("share-proof-name\n" + id).substring(0, 16);
	}

	/**
	 * The cookie a visitor gets after giving the right password.
	 * @param exchange the exchange, for the base path and whether it came over TLS
	 * @param share the share, which has a password
	 * @return the cookie
	 */
	static ResponseCookie cookie(ServerWebExchange exchange, Share share) {
		String contextPath = exchange.getRequest().getPath().contextPath().value();
		return ResponseCookie.from(name(share.id()), value(share))
			.path(contextPath.isEmpty() ? "/" : contextPath + "/")
			.httpOnly(true)
			.sameSite("Strict")
			.secure(Clients.isSecure(exchange))
			.build();
	}

	/**
	 * The proof cookie the request carries for a share.
	 * @param exchange the exchange
	 * @param share the share
	 * @return the cookie's value, or {@code null} if there is none
	 */
	static @Nullable String sent(ServerWebExchange exchange, Share share) {
		List<HttpCookie> cookies = exchange.getRequest().getCookies().get(name(share.id()));
		return (cookies == null || cookies.isEmpty()) ? null : cookies.get(0).getValue();
	}

	/**
	 * Whether a cookie's value proves the share's current password.
	 * @param sent the value sent
	 * @param share the share, which has a password
	 * @return whether it does
	 */
	static boolean proves(String sent, Share share) {
		return MessageDigest.isEqual(sent.getBytes(StandardCharsets.US_ASCII),
				value(share).getBytes(StandardCharsets.US_ASCII));
	}

	private static String value(Share share) {
		return Secrets.digest("share-proof\n" + share.id() + "\n" + share.passwordHash());
	}

}
