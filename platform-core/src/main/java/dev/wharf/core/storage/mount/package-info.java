/**
 * Mounts: named storages configured under {@code wharf.storage.mounts}, the providers
 * that make them and the registry protocols use.
 */
@NullMarked
package dev.wharf.core.storage.mount;

import org.jspecify.annotations.NullMarked;
