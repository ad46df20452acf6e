/**
 * Password logins against an LDAP directory: a bind as the user, the user's groups, TLS
 * through an SSL bundle.
 */
@NullMarked
package dev.wharf.core.security.ldap;

import org.jspecify.annotations.NullMarked;
