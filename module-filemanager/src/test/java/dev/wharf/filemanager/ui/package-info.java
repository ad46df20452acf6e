/**
 * Tests of the browser UI.
 */
@NullMarked
package dev.wharf.filemanager.ui;

import org.jspecify.annotations.NullMarked;
