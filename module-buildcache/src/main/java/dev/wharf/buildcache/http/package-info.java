/**
 * The build cache's HTTP protocol: GET, HEAD and PUT of entries under the base path, and
 * its health check.
 */
@NullMarked
package dev.wharf.buildcache.http;

import org.jspecify.annotations.NullMarked;
