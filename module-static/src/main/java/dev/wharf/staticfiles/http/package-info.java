/**
 * HTTP rules of static serving that need no server: content codings and gzip.
 */
@NullMarked
package dev.wharf.staticfiles.http;

import org.jspecify.annotations.NullMarked;
