/**
 * The actuator as Wharf exposes it: health on the public port without details, metrics
 * without host paths.
 */
@NullMarked
package dev.wharf.app.actuator;

import org.jspecify.annotations.NullMarked;
