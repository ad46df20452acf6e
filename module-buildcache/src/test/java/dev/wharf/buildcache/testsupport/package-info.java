/**
 * Test support for the build cache: a test application, raw HTTP, users.
 */
package dev.wharf.buildcache.testsupport;
