/**
 * Static sites as configured: prefix, host, mount, options, content types and cache
 * rules.
 */
@NullMarked
package dev.wharf.staticfiles.site;

import org.jspecify.annotations.NullMarked;
