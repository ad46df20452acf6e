/**
 * Auto-configuration of the platform: storage mounts, users and authentication.
 */
@NullMarked
package dev.wharf.core.autoconfigure;

import org.jspecify.annotations.NullMarked;
