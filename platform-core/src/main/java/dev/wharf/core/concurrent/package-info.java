/**
 * Named, bounded threads for blocking work, and a Reactor scheduler over them that never interrupts.
 */
@NullMarked
package dev.wharf.core.concurrent;

import org.jspecify.annotations.NullMarked;
