/**
 * Hostile HTTP clients against the whole application on real sockets: slow and stalled
 * requests, oversized heads and bodies, lying lengths, many idle connections, cross-site
 * requests, session fixation, header injection, login guessing, request decompression and
 * zip entry names. Findings: {@code docs/reliability/hostile-http.md}.
 */
@NullMarked
package dev.wharf.app.hostile;

import org.jspecify.annotations.NullMarked;
