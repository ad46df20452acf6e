package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.wharf.core.storage.StoragePath;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.sftp.FileAttributes;
import net.schmizz.sshj.sftp.PacketType;
import net.schmizz.sshj.sftp.RemoteResourceInfo;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPEngine;
import net.schmizz.sshj.sftp.SFTPException;

/**
 * Reads folders on the server in as few round trips as the protocol allows. These
 * requests are pipelined, sent without waiting for the previous answer:
 * <ul>
 * <li>a folder's {@code REALPATH} and the {@code OPENDIR} of its plain path; the handle
 * is used only when the real path is that plain path, so no link on the way was
 * followed;</li>
 * <li>two {@code READDIR}s, so that a small folder's entries and its end arrive
 * together;</li>
 * <li>the {@code CLOSE}, whose answer nothing depends on.</li>
 * </ul>
 * A listing of a folder below the root therefore takes two round trips rather than four.
 *
 * <p>
 * Not thread-safe: each call uses one connection's engine, which its lease holds alone.
 */
final class RemoteFolders {

	/** READDIR requests kept in flight. */
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
	static Listing list(SFTPEngine engine, RemotePaths paths, StoragePath directory) throws IOException {
		if (directory.isRoot()) {
			return new Listing(paths.root(), list(engine, paths.root()));
		}
		String lexical = paths.lexical(directory);
		Promise<Response, SFTPException> realpath = engine.request(
				engine.newRequest(PacketType.REALPATH).putString(lexical, engine.getSubsystem().getRemoteCharset()));
		Promise<Response, SFTPException> open = openDir(engine, lexical);
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
	static List<RemoteResourceInfo> list(SFTPEngine engine, String folder) throws IOException {
		return read(engine, folder, handle(engine, openDir(engine, folder)));
	}

	private static Promise<Response, SFTPException> openDir(SFTPEngine engine, String folder) throws IOException {
		return engine
			.request(engine.newRequest(PacketType.OPENDIR).putString(folder, engine.getSubsystem().getRemoteCharset()));
	}

	private static byte[] handle(SFTPEngine engine, Promise<Response, SFTPException> open) throws IOException {
		return retrieve(engine, open).ensurePacketTypeIs(PacketType.HANDLE).readBytes();
	}

	private static List<RemoteResourceInfo> read(SFTPEngine engine, String folder, byte[] handle) throws IOException {
		List<RemoteResourceInfo> entries = new ArrayList<>();
		Deque<Promise<Response, SFTPException>> reads = new ArrayDeque<>(READS_AHEAD);
		try {
			for (int i = 0; i < READS_AHEAD; i++) {
				reads.add(readDir(engine, handle));
			}
			while (true) {
				Response response = retrieve(engine, reads.remove());
				if (response.getType() == PacketType.STATUS) {
					response.ensureStatusIs(Response.StatusCode.EOF);
					// A server that answers out of order may still hold entries in a
					// later answer.
					while (!reads.isEmpty()) {
						Response later = retrieve(engine, reads.remove());
						if (later.getType() == PacketType.NAME) {
							addEntries(engine, folder, later, entries);
						}
					}
					return entries;
				}
				addEntries(engine, folder, response.ensurePacketTypeIs(PacketType.NAME), entries);
				reads.add(readDir(engine, handle));
			}
		}
		finally {
			closeWithoutWaiting(engine, handle);
		}
	}

	private static Promise<Response, SFTPException> readDir(SFTPEngine engine, byte[] handle) throws IOException {
		return engine.request(engine.newRequest(PacketType.READDIR).putString(handle));
	}

	private static void addEntries(SFTPEngine engine, String folder, Response names, List<RemoteResourceInfo> entries)
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

	private static String readSingleName(SFTPEngine engine, Response response) throws IOException {
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
	private static void discard(SFTPEngine engine, Promise<Response, SFTPException> open) {
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

	private static void closeWithoutWaiting(SFTPEngine engine, byte[] handle) {
		try {
			engine.request(engine.newRequest(PacketType.CLOSE).putString(handle));
		}
		catch (IOException ex) {
			// The connection broke; the pool notices before its next use.
		}
	}

	private static Response retrieve(SFTPEngine engine, Promise<Response, SFTPException> promise) throws IOException {
		return promise.retrieve(engine.getTimeoutMs(), TimeUnit.MILLISECONDS);
	}

}
