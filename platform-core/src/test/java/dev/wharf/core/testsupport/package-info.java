/**
 * Test support shared by every module: machine requirements that fail in CI and skip elsewhere, and a tmpfs for disk-full tests.
 */
package dev.wharf.core.testsupport;
