/**
 * TLS for FTPS: key material from Spring Boot SSL bundles for control and data
 * connections.
 */
@NullMarked
package dev.wharf.ftp.tls;

import org.jspecify.annotations.NullMarked;
