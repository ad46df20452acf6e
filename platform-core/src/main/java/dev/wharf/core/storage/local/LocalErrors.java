package dev.wharf.core.storage.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;

/**
 * Maps {@code java.nio.file} failures to storage errors. Messages name the mount-relative
 * path, never the host path that the JDK's messages contain.
 */
final class LocalErrors {

	private LocalErrors() {
	}

	static Throwable map(Throwable error, StoragePath path) {
		if (error instanceof StorageException) {
			return error;
		}
		if (error instanceof UncheckedIOException unchecked) {
			return map(cause(unchecked), path);
		}
		if (error instanceof IOException io) {
			return map(io, path);
		}
		if (error instanceof RejectedExecutionException) {
			return new BackendUnavailableException("Mount is overloaded, try again", error);
		}
		return error;
	}

	static StorageException map(IOException error, StoragePath path) {
		if (error instanceof NoSuchFileException) {
			return new NotFoundException("Not found: " + path, error);
		}
		if (error instanceof FileAlreadyExistsException) {
			return new AlreadyExistsException("Already exists: " + path, error);
		}
		if (error instanceof DirectoryNotEmptyException) {
			return new ConflictException("Folder is not empty: " + path, error);
		}
		if (error instanceof NotDirectoryException) {
			return new ConflictException("Not a folder: " + path, error);
		}
		if (error instanceof FileSystemLoopException) {
			return new AccessDeniedException("Link loop at " + path, error);
		}
		if (error instanceof java.nio.file.AccessDeniedException) {
			return new AccessDeniedException("Permission denied: " + path, error);
		}
		String reason = (error instanceof FileSystemException fs) ? fs.getReason() : error.getMessage();
		if (reason != null) {
			if (reason.contains("No space left") || reason.contains("Disk quota exceeded")
					|| reason.contains("File too large")) {
				return new QuotaExceededException("No space left for " + path, error);
			}
			if (reason.contains("Read-only file system") || reason.contains("Operation not permitted")) {
				return new AccessDeniedException("Not writable: " + path, error);
			}
			if (reason.contains("Is a directory")) {
				return new ConflictException("Is a folder: " + path, error);
			}
			if (reason.contains("Not a directory")) {
				return new ConflictException("Not a folder: " + path, error);
			}
		}
		return new StorageIoException("I/O error on " + path, error);
	}

	private static IOException cause(UncheckedIOException unchecked) {
		// UncheckedIOException's constructors refuse a null cause.
		return Objects.requireNonNull(unchecked.getCause(), "UncheckedIOException without a cause");
	}

}
