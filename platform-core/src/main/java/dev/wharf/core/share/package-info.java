/**
 * Share links: what a link grants (a folder or file of one mount, its rights and limits)
 * and the SPI of where links live.
 */
@NullMarked
package dev.wharf.core.share;

import org.jspecify.annotations.NullMarked;
