/**
 * Server-side sessions and API tokens that every HTTP protocol shares: revocable, stored
 * behind SPIs so replicas can share them.
 */
@NullMarked
package dev.wharf.core.session;

import org.jspecify.annotations.NullMarked;
