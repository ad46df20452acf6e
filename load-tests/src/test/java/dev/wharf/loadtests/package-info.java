/**
 * What every load test shares: parameters from system properties, {@code ab}-style levels
 * for Gatling, per-level counts and latencies, and the results file the report reads.
 */
@NullMarked
package dev.wharf.loadtests;

import org.jspecify.annotations.NullMarked;
