/**
 * Test support for the file manager: the test application, a raw-URI HTTP client, and storages with injected faults.
 */
package dev.wharf.filemanager.testsupport;
