/**
 * The {@code s3} backend: files as objects in a bucket of Amazon S3 or any S3-compatible
 * server, through the AWS SDK's asynchronous client.
 */
@NullMarked
package dev.wharf.core.storage.s3;

import org.jspecify.annotations.NullMarked;
