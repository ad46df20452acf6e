/**
 * The HTTP front of the static server: Reactor Netty routes that answer static requests.
 */
@NullMarked
package dev.wharf.staticfiles.server;

import org.jspecify.annotations.NullMarked;
