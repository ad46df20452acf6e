/**
 * Test support for the build cache: a test application, users.
 */
package dev.wharf.buildcache.testsupport;
