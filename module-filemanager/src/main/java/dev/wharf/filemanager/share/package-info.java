/**
 * Share links: managing them ({@code /api/share}), proving a link's password, visitors'
 * use of the file API through {@code &share=}, and the public page {@code /s/<id>}.
 */
@NullMarked
package dev.wharf.filemanager.share;

import org.jspecify.annotations.NullMarked;
