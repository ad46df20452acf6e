/**
 * HTTP rules of static serving that need no server: ranges, entity tags, preconditions, content codings, dates, gzip.
 */
@NullMarked
package dev.wharf.staticfiles.http;

import org.jspecify.annotations.NullMarked;
