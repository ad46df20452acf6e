/**
 * Named, bounded threads for blocking work, a Reactor scheduler over them that never
 * interrupts, and the logging of errors Reactor drops, quiet for clients that went away.
 */
@NullMarked
package dev.wharf.core.concurrent;

import org.jspecify.annotations.NullMarked;
