/**
 * The browser UI: a single page and its fingerprinted assets, served from the jar.
 */
@NullMarked
package dev.wharf.filemanager.ui;

import org.jspecify.annotations.NullMarked;
