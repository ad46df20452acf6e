/**
 * HTTP server fixes that every HTTP module needs, applied to the shared WebFlux server;
 * what modules that route requests ahead of WebFlux share (the order of their routes, the
 * raw request target); and the HTTP rules every module evaluates the same way (ranges,
 * entity tags, preconditions, dates, content types, the statuses of storage errors); the
 * web server held to the TLS policy.
 */
@NullMarked
package dev.wharf.core.web;

import org.jspecify.annotations.NullMarked;
