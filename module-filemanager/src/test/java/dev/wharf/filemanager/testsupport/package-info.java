/**
 * Test support for the file manager: the test application, a raw-URI HTTP client, a zip
 * reader, and storages with injected faults.
 */
package dev.wharf.filemanager.testsupport;
