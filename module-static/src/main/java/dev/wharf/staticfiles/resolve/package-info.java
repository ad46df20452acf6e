/**
 * Turns a request path into a servable file and its representations through the storage
 * SPI.
 */
@NullMarked
package dev.wharf.staticfiles.resolve;

import org.jspecify.annotations.NullMarked;
