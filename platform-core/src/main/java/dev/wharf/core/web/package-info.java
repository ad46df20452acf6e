/**
 * HTTP server fixes that every HTTP module needs, applied to the shared WebFlux server, and what modules that
 * route requests ahead of WebFlux share (the order of their routes, the raw request target).
 */
@NullMarked
package dev.wharf.core.web;

import org.jspecify.annotations.NullMarked;
