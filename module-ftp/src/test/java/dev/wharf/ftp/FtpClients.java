package dev.wharf.ftp;

import java.io.IOException;
import java.time.Duration;

import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;

import static org.assertj.core.api.Assertions.assertThat;

/** Commons Net clients logged in to a test server. */
public final class FtpClients {

	private FtpClients() {
	}

	/**
	 * A client connected and logged in, in passive binary mode, with generous timeouts.
	 * @param server the server
	 * @param user a test user
	 * @return the client; disconnect it when done
	 */
	public static FTPClient login(FtpTestServer server, String user) throws IOException {
		FTPClient client = connect(server);
		assertThat(client.login(user, FtpTestServer.password(user))).as(client.getReplyString()).isTrue();
		client.enterLocalPassiveMode();
		assertThat(client.setFileType(FTP.BINARY_FILE_TYPE)).isTrue();
		return client;
	}

	/**
	 * A client connected but not logged in.
	 * @param server the server
	 * @return the client
	 */
	public static FTPClient connect(FtpTestServer server) throws IOException {
		FTPClient client = new FTPClient();
		configure(client);
		client.connect("127.0.0.1", server.port());
		return client;
	}

	/** Sets the timeouts and encoding every test client uses. */
	public static void configure(FTPClient client) {
		client.setConnectTimeout(30_000);
		client.setDefaultTimeout(60_000);
		client.setDataTimeout(Duration.ofSeconds(60));
		client.setControlEncoding("UTF-8");
	}

	/** Logs out and disconnects, ignoring a connection that is already gone. */
	public static void close(FTPClient client) {
		try {
			if (client.isConnected()) {
				client.logout();
			}
		}
		catch (IOException ex) {
			// Already closed by the server.
		}
		finally {
			try {
				client.disconnect();
			}
			catch (IOException ex) {
				// Nothing left to close.
			}
		}
	}

}
