/**
 * Configuration errors that stop start-up with a message naming the property, and Wharf's
 * own files in the state folder.
 */
@NullMarked
package dev.wharf.core.config;

import org.jspecify.annotations.NullMarked;
