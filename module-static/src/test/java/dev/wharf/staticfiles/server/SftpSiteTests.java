package dev.wharf.staticfiles.server;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.storage.sftp.SftpStorageProvider;
import dev.wharf.core.testsupport.OpenSshServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * A site on an {@code sftp} mount, against a real OpenSSH {@code sshd}, the mount made
 * from properties the way start-up makes it.
 */
class SftpSiteTests extends AbstractRemoteSiteTests {

	@RegisterExtension
	static final OpenSshServer.PerClass sshd = new OpenSshServer.PerClass();

	@TempDir
	static Path remote;

	@BeforeAll
	static void start() {
		OpenSshServer ssh = sshd.server();
		String prefix = MountDefinition.PREFIX + ".remote.";
		Map<String, String> properties = Map.of(prefix + "type", SftpStorageProvider.TYPE, prefix + "host", ssh.host(),
				prefix + "port", Integer.toString(ssh.port()), prefix + "username", ssh.user(), prefix + "private-key",
				"file:" + ssh.clientKey(), prefix + "known-hosts", ssh.knownHostsLine(), prefix + "root",
				remote.toString());
		serve(MountRegistry.create(new Binder(new MapConfigurationPropertySource(properties)),
				List.of(new SftpStorageProvider()), MountRegistry.Decorator.NONE));
	}

}
