package dev.wharf.ftp.engine;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

import dev.wharf.core.mounts.MountLocation;
import dev.wharf.ftp.command.FtpSession;
import dev.wharf.ftp.filesystem.MountFileSystemView;
import dev.wharf.ftp.session.FtpUser;
import dev.wharf.ftp.session.Reply;
import dev.wharf.ftp.session.SessionContext;
import org.apache.ftpserver.ftplet.DefaultFtpReply;
import org.apache.ftpserver.ftplet.FtpReply;
import org.apache.ftpserver.ftplet.User;
import org.apache.ftpserver.impl.FtpIoSession;
import org.apache.mina.core.session.IoSession;
import org.jspecify.annotations.Nullable;

/**
 * Wharf's {@link FtpSession} over Apache FtpServer's session: the user, the file system
 * view and the state commands leave for each other are kept where FtpServer's own
 * commands ({@code REST}, {@code OPTS MLST}, {@code PROT}) read and write them; Wharf's
 * {@link SessionContext} is an attribute of the MINA session. A view is made per command;
 * the state lives in the MINA session, which is thread-safe.
 */
final class EngineSession implements FtpSession {

	private static final String CONTEXT = SessionContext.class.getName();

	/** Where FtpServer's {@code OPTS MLST} keeps the chosen facts. */
	private static final String MLST_FACTS = "MLST.types";

	private static final String RENAME_FROM = EngineSession.class.getName() + ".rename-from";

	private final FtpIoSession session;

	EngineSession(FtpIoSession session) {
		this.session = session;
	}

	/**
	 * Attaches Wharf's context to a new control connection.
	 * @param session the connection
	 * @param context its context
	 */
	static void attach(IoSession session, SessionContext context) {
		session.setAttribute(CONTEXT, context);
	}

	/**
	 * The context of a control connection.
	 * @param session the connection
	 * @return its context
	 */
	static SessionContext contextOf(IoSession session) {
		SessionContext context = findContext(session);
		if (context == null) {
			throw new IllegalStateException("No Wharf session context");
		}
		return context;
	}

	/**
	 * The context of a control connection, if it has one (connections refused at once
	 * have none).
	 * @param session the connection
	 * @return its context, or {@code null}
	 */
	static @Nullable SessionContext findContext(IoSession session) {
		return (SessionContext) session.getAttribute(CONTEXT);
	}

	/**
	 * Writes a reply, closing the connection after it if the reply says so.
	 * @param session the connection
	 * @param reply the reply
	 */
	static void write(IoSession session, Reply reply) {
		session.write(toFtpReply(reply));
		if (reply.closing()) {
			session.closeOnFlush();
		}
	}

	/**
	 * A reply as FtpServer's reply encoder writes it.
	 * @param reply the reply
	 * @return the same reply
	 */
	static FtpReply toFtpReply(Reply reply) {
		List<String> lines = reply.lines();
		return (lines.size() == 1) ? new DefaultFtpReply(reply.code(), lines.get(0))
				: new DefaultFtpReply(reply.code(), lines.toArray(String[]::new));
	}

	@Override
	public void reply(Reply reply) {
		write(this.session, reply);
	}

	@Override
	public SessionContext context() {
		return contextOf(this.session);
	}

	@Override
	public @Nullable FtpUser user() {
		User user = this.session.getUser();
		return (user instanceof EngineUser engineUser) ? engineUser.user() : null;
	}

	@Override
	public void login(FtpUser user, MountFileSystemView files) {
		this.session.setUser(new EngineUser(user));
		this.session.setLogin(new EngineFileSystemView(files));
	}

	@Override
	public MountFileSystemView files() {
		if (!(this.session.getFileSystemView() instanceof EngineFileSystemView view)) {
			throw new IllegalStateException("Not logged in");
		}
		return view.files();
	}

	@Override
	public @Nullable String userArgument() {
		return this.session.getUserArgument();
	}

	@Override
	public void setUserArgument(@Nullable String name) {
		this.session.setUserArgument(name);
	}

	@Override
	public long fileOffset() {
		return this.session.getFileOffset();
	}

	@Override
	public MountLocation.@Nullable InMount renameFrom() {
		return (MountLocation.InMount) this.session.getAttribute(RENAME_FROM);
	}

	@Override
	public void setRenameFrom(MountLocation.InMount source) {
		this.session.setAttribute(RENAME_FROM, source);
	}

	@Override
	public void resetState() {
		this.session.resetState();
		this.session.removeAttribute(RENAME_FROM);
	}

	@Override
	public @Nullable List<String> chosenFacts() {
		return (this.session.getAttribute(MLST_FACTS) instanceof String[] names) ? List.of(names) : null;
	}

	@Override
	public SocketAddress remoteAddress() {
		return this.session.getRemoteAddress();
	}

	@Override
	public @Nullable String clientAddress() {
		return (this.session.getRemoteAddress() instanceof InetSocketAddress address)
				? address.getAddress().getHostAddress() : null;
	}

	@Override
	public boolean isOpen() {
		return this.session.isConnected() && !this.session.isClosing();
	}

}
