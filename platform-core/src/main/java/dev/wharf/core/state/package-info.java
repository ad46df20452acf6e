/**
 * State that replicas must agree on (sessions, API tokens, login throttling, locks), kept
 * in this process or in Redis as {@code wharf.state.store} says.
 */
@NullMarked
package dev.wharf.core.state;

import org.jspecify.annotations.NullMarked;
