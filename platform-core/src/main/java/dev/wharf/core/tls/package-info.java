/**
 * The TLS every Wharf protocol speaks: the policy (protocols and cipher suites) and an
 * SSL context that holds every engine it makes to it.
 */
@NullMarked
package dev.wharf.core.tls;

import org.jspecify.annotations.NullMarked;
