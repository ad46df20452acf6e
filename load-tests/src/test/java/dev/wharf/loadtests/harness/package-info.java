/**
 * What {@code load-tests/run.sh} calls besides the simulations: test fixtures and the
 * Markdown reports.
 */
@NullMarked
package dev.wharf.loadtests.harness;

import org.jspecify.annotations.NullMarked;
