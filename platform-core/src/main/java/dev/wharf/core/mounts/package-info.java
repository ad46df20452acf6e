/**
 * The mounts a protocol module serves as one tree, and each user's view of it: the mounts
 * they may read, where a path of the tree leads, and each mount's storage with the user's
 * rights and credentials attached.
 */
@NullMarked
package dev.wharf.core.mounts;

import org.jspecify.annotations.NullMarked;
