package dev.wharf.filemanager.session;

import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.JsonBody;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.WebHandler;

/**
 * {@code GET /api/session/methods}, for the UI's login page before anyone is logged in:
 * whether users may also sign in through an OpenID Connect provider, and what its button
 * calls it:
 * {@code {"status":"ok","result":{"oidc":{"name":"…","url":"api/session/oidc"}}}}, or no
 * {@code oidc} when that is off. Tells nothing about any user.
 */
public final class SignInMethods {

	private final JsonBody answer;

	/**
	 * Creates the handler.
	 * @param oidcName the provider's name, or {@code null} if OIDC sign-in is off
	 * @param oidcPath the sign-in link, relative to the UI, such as
	 * {@code api/session/oidc}
	 */
	public SignInMethods(@Nullable String oidcName, String oidcPath) {
		this.answer = JsonBody.write(128, json -> {
			json.writeStartObject().writeStringProperty("status", "ok").writeObjectPropertyStart("result");
			if (oidcName != null) {
				json.writeObjectPropertyStart("oidc")
					.writeStringProperty("name", oidcName)
					.writeStringProperty("url", oidcPath)
					.writeEndObject();
			}
			json.writeEndObject().writeEndObject();
		});
	}

	/** The handler. */
	public WebHandler handler() {
		return exchange -> ApiResponses.json(exchange, HttpStatus.OK, this.answer, "no-cache");
	}

}
