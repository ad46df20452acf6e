/**
 * Auto-configuration of the Gradle and Maven remote build cache.
 */
@NullMarked
package dev.wharf.buildcache.autoconfigure;

import org.jspecify.annotations.NullMarked;
