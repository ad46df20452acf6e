/**
 * Name search through the folders a user may see, streamed, within a time budget.
 */
@NullMarked
package dev.wharf.filemanager.search;

import org.jspecify.annotations.NullMarked;
