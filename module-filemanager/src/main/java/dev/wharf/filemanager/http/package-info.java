/**
 * The file API's HTTP plumbing: exact-path dispatch, strict query parsing, the JSON
 * envelope and one mapping from errors to statuses.
 */
@NullMarked
package dev.wharf.filemanager.http;

import org.jspecify.annotations.NullMarked;
