/**
 * Configuration errors that stop start-up with a message naming the property.
 */
@NullMarked
package dev.wharf.core.config;

import org.jspecify.annotations.NullMarked;
