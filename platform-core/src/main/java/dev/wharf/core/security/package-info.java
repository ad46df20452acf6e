/**
 * Users, roles and per-mount rights, password hashing, login throttling, the audit log
 * and the authenticator every protocol shares.
 */
@NullMarked
package dev.wharf.core.security;

import org.jspecify.annotations.NullMarked;
