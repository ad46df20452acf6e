/**
 * One Gatling simulation per published table, sending the requests the original benchmark
 * sent.
 */
@NullMarked
package dev.wharf.loadtests.simulations;

import org.jspecify.annotations.NullMarked;
