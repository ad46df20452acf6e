/**
 * The short smoke run of every simulation against the packaged jar, so that none of them
 * rots.
 */
@NullMarked
package dev.wharf.loadtests.smoke;

import org.jspecify.annotations.NullMarked;
