/**
 * The runnable Wharf application and its commands.
 */
@NullMarked
package dev.wharf.app;

import org.jspecify.annotations.NullMarked;
