package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.storage.StoragePath;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.sftp.FileAttributes;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.RemoteResourceInfo;
import net.schmizz.sshj.sftp.Request;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPException;

/**
 * Reads folders on the server in as few round trips as the protocol allows. These
 * requests are pipelined, sent without waiting for the previous answer:
 * <ul>
 * <li>a folder's {@code REALPATH} and the {@code OPENDIR} of its plain path, in one SSH
 * message; the handle is used only when the real path is that plain path, so no link on
 * the way was followed;</li>
 * <li>{@code READDIR}s two at a time, in one SSH message, so that a small folder's
 * entries and its end arrive together;</li>
 * <li>the {@code CLOSE}, whose answer nothing depends on.</li>
 * </ul>
 * A listing of a folder below the root therefore takes two round trips rather than four.
 *
 * <p>
 * Not thread-safe: each call uses one connection's engine, which its lease holds alone.
 */
final class RemoteFolders {

	/** READDIR requests sent together. */
	private static final int READS_AHEAD = 2;

	private RemoteFolders() {
	}

	/** A folder's canonical server path and its entries. */
	record Listing(String folder, List<RemoteResourceInfo> entries) {
	}

	/**
	 * Lists a folder given by its storage path, confined to the mount's root as
	 * {@link RemotePaths#real} confines it.
	 * @param engine the channel
	 * @param paths the mount's root
	 * @param directory the folder
	 * @return its canonical path and entries
	 * @throws dev.wharf.core.storage.AccessDeniedException if a link leads out of the
	 * root
	 * @throws SFTPException as the server answers, for a missing folder or one that
	 * cannot be opened
	 */
	static Listing list(SftpEngine engine, RemotePaths paths, StoragePath directory) throws IOException {
		if (directory.isRoot()) {
			return new Listing(paths.root(), list(engine, paths.root()));
		}
		String lexical = paths.lexical(directory);
		List<Promise<Response, SFTPException>> answers = engine.requestTogether(
				engine.newRequest(PacketType.REALPATH).putString(lexical, engine.getSubsystem().getRemoteCharset()),
				openDirRequest(engine, lexical));
		Promise<Response, SFTPException> realpath = answers.get(0);
		Promise<Response, SFTPException> open = answers.get(1);
		String real;
		try {
			real = paths.confine(directory, readSingleName(engine, retrieve(engine, realpath)));
		}
		catch (IOException | RuntimeException ex) {
			discard(engine, open);
			throw ex;
		}
		if (!real.equals(lexical)) {
			// A link on the way: the handle may be outside the root, so it is closed
			// unread.
			discard(engine, open);
			return new Listing(real, list(engine, real));
		}
		return new Listing(real, read(engine, real, handle(engine, open)));
	}

	/**
	 * Every entry of a folder except {@code .} and {@code ..}, with its own attributes (a
	 * link's, not its target's, as OpenSSH reports them).
	 * @param engine the channel
	 * @param folder the folder's canonical server path
	 * @return the entries, in the server's order
	 */
	static List<RemoteResourceInfo> list(SftpEngine engine, String folder) throws IOException {
		return read(engine, folder, handle(engine, openDir(engine, folder)));
	}

	private static Promise<Response, SFTPException> openDir(SftpEngine engine, String folder) throws IOException {
		return engine.request(openDirRequest(engine, folder));
	}

	private static Request openDirRequest(SftpEngine engine, String folder) {
		return engine.newRequest(PacketType.OPENDIR).putString(folder, engine.getSubsystem().getRemoteCharset());
	}

	private static byte[] handle(SftpEngine engine, Promise<Response, SFTPException> open) throws IOException {
		return retrieve(engine, open).ensurePacketTypeIs(PacketType.HANDLE).readBytes();
	}

	private static List<RemoteResourceInfo> read(SftpEngine engine, String folder, byte[] handle) throws IOException {
		List<RemoteResourceInfo> entries = new ArrayList<>();
		Request[] reads = new Request[READS_AHEAD];
		try {
			while (true) {
				// A batch at a time rather than a new READDIR after each answer: a
				// small folder ends within the first batch, and a READDIR sent after
				// its names would cost one more round trip only to read the end again.
				for (int i = 0; i < READS_AHEAD; i++) {
					reads[i] = readDirRequest(engine, handle);
				}
				boolean end = false;
				for (Promise<Response, SFTPException> read : engine.requestTogether(reads)) {
					Response response = retrieve(engine, read);
					if (response.getType() == PacketType.STATUS) {
						response.ensureStatusIs(Response.StatusCode.EOF);
						end = true;
					}
					else {
						// After the end too: a server that answers out of order may
						// still hold entries in a later answer.
						addEntries(engine, folder, response.ensurePacketTypeIs(PacketType.NAME), entries);
					}
				}
				if (end) {
					return entries;
				}
			}
		}
		finally {
			closeWithoutWaiting(engine, handle);
		}
	}

	private static Request readDirRequest(SftpEngine engine, byte[] handle) {
		return engine.newRequest(PacketType.READDIR).putString(handle);
	}

	private static void addEntries(SftpEngine engine, String folder, Response names, List<RemoteResourceInfo> entries)
			throws IOException {
		int count = names.readUInt32AsInt();
		for (int i = 0; i < count; i++) {
			String name = names.readString(engine.getSubsystem().getRemoteCharset());
			// The "long name" (ls -l text): not part of the protocol's meaning, skipped.
			names.readStringAsBytes();
			FileAttributes attributes = names.readFileAttributes();
			if (!name.equals(".") && !name.equals("..")) {
				entries.add(new RemoteResourceInfo(engine.getPathHelper().getComponents(folder, name), attributes));
			}
		}
	}

	private static String readSingleName(SftpEngine engine, Response response) throws IOException {
		response.ensurePacketTypeIs(PacketType.NAME);
		if (response.readUInt32AsInt() != 1) {
			throw new SFTPException("Unexpected data in a REALPATH answer");
		}
		return response.readString(engine.getSubsystem().getRemoteCharset());
	}

	/**
	 * Takes the answer to an OPENDIR that will not be read, closing the handle if one was
	 * opened.
	 */
	private static void discard(SftpEngine engine, Promise<Response, SFTPException> open) {
		try {
			Response response = retrieve(engine, open);
			if (response.getType() == PacketType.HANDLE) {
				closeWithoutWaiting(engine, response.readBytes());
			}
		}
		catch (IOException | RuntimeException ex) {
			// Failed to open (nothing to close) or the connection broke (the pool notices
			// before its next use).
		}
	}

	private static void closeWithoutWaiting(SftpEngine engine, byte[] handle) {
		try {
			engine.request(engine.newRequest(PacketType.CLOSE).putString(handle));
		}
		catch (IOException ex) {
			// The connection broke; the pool notices before its next use.
		}
	}

	private static Response retrieve(SftpEngine engine, Promise<Response, SFTPException> promise) throws IOException {
		return promise.retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS);
	}

}
