/**
 * HTTP server fixes that every HTTP module needs, applied to the shared WebFlux server.
 */
@NullMarked
package dev.wharf.core.web;

import org.jspecify.annotations.NullMarked;
