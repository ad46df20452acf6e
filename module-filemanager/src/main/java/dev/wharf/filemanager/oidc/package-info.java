/**
 * Sign-in to the web UI through an OpenID Connect provider: the authorization code flow
 * with PKCE, ending in a normal Wharf session.
 */
@NullMarked
package dev.wharf.filemanager.oidc;

import org.jspecify.annotations.NullMarked;
