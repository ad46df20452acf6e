/**
 * Who may use the build cache: authentication (Basic, TLS client certificates,
 * anonymous), roles and request quotas.
 */
@NullMarked
package dev.wharf.buildcache.access;

import org.jspecify.annotations.NullMarked;
