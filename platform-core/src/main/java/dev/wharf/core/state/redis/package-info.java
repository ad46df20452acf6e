/**
 * The Redis implementations of the shared state: sessions, API tokens, login throttling,
 * session-start limits, external users, locks and invalidations.
 */
@NullMarked
package dev.wharf.core.state.redis;

import org.jspecify.annotations.NullMarked;
