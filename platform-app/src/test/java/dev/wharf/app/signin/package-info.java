/**
 * Sign-in from a directory against the whole application over its real protocols and
 * clients: LDAP users on a real slapd for the file manager, FTP (lftp) and the build
 * cache (curl), and OIDC in headless Chromium against a real authorization server.
 */
@NullMarked
package dev.wharf.app.signin;

import org.jspecify.annotations.NullMarked;
