package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.hierynomus.sshj.sftp.RemoteResourceSelector;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.RemoteDirectory;
import net.schmizz.sshj.sftp.RemoteResourceInfo;
import net.schmizz.sshj.sftp.Request;
import net.schmizz.sshj.sftp.SFTPEngine;

/**
 * Reads folders on the server. A listing takes an open, reads until the end and a close; the close is sent
 * without waiting for its answer (nothing depends on it), which saves one of those round trips per listing.
 */
final class RemoteFolders {

	private RemoteFolders() {
	}

	/**
	 * Every entry of a folder except {@code .} and {@code ..}, with its own attributes (a link's, not its
	 * target's, as OpenSSH reports them).
	 * @param engine the channel
	 * @param folder the folder's server path
	 * @return the entries, in the server's order
	 */
	static List<RemoteResourceInfo> list(SFTPEngine engine, String folder) throws IOException {
		Request open = engine.newRequest(PacketType.OPENDIR)
			.putString(folder, engine.getSubsystem().getRemoteCharset());
		byte[] handle = engine.request(open)
			.retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS)
			.ensurePacketTypeIs(PacketType.HANDLE)
			.readBytes();
		Folder directory = new Folder(engine, folder, handle);
		try {
			return directory.scan(RemoteResourceSelector.ALL);
		}
		finally {
			directory.closeWithoutWaiting();
		}
	}

	private static final class Folder extends RemoteDirectory {

		Folder(SFTPEngine engine, String path, byte[] handle) {
			super(engine, path, handle);
		}

		void closeWithoutWaiting() {
			try {
				this.requester.request(newRequest(PacketType.CLOSE));
			}
			catch (IOException ex) {
				// The connection broke; the pool notices before its next use.
			}
		}

	}

}
