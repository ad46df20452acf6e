package dev.wharf.ftp.engine;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import org.apache.ftpserver.ftplet.FileSystemView;
import org.apache.ftpserver.ftplet.FtpFile;

/**
 * A session's {@link MountFileSystemView} as Apache FtpServer's {@link FileSystemView},
 * for FtpServer's own commands and Ftplets; Wharf's commands use the Wharf view.
 * Thread-safe like the Wharf view.
 *
 * @param files the Wharf view
 */
record EngineFileSystemView(MountFileSystemView files) implements FileSystemView {

	@Override
	public FtpFile getHomeDirectory() {
		return new MountFtpFile(this.files.locate(StoragePath.root()));
	}

	@Override
	public FtpFile getWorkingDirectory() {
		return new MountFtpFile(this.files.locate(this.files.workingDirectoryPath()));
	}

	/**
	 * Changes the working folder for Apache FtpServer's own commands; Wharf's {@code CWD}
	 * reports errors more precisely.
	 * @param dir the argument
	 * @return whether it is now the working folder
	 */
	@Override
	public boolean changeWorkingDirectory(String dir) {
		try {
			StoragePath target = "..".equals(dir) ? this.files.parentOfWorkingDirectory() : this.files.resolve(dir);
			if (target == null || !new MountFtpFile(this.files.locate(target)).isDirectory()) {
				return false;
			}
			this.files.changeWorkingDirectory(target);
			return true;
		}
		catch (InvalidStoragePathException ex) {
			return false;
		}
	}

	/**
	 * A file object for Apache FtpServer's own commands and for Ftplets.
	 * @param file the argument
	 * @return the file; a bad path gives a file that does not exist
	 */
	@Override
	public FtpFile getFile(String file) {
		try {
			return new MountFtpFile(this.files.locate(file));
		}
		catch (InvalidStoragePathException ex) {
			return new MountFtpFile(new MountLocation.Unknown(StoragePath.root()));
		}
	}

	/** Reads can start at an offset on every backend. */
	@Override
	public boolean isRandomAccessible() {
		return true;
	}

	/**
	 * Nothing to release: mounts belong to the server, credentials are dropped with the
	 * session.
	 */
	@Override
	public void dispose() {
	}

}
