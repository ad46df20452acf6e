package dev.wharf.core.testsupport;

import java.nio.file.Path;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Properties every {@code @SpringBootTest} of Wharf needs so that it touches nothing
 * outside its own temporary folder: the state folder there, and one mount named
 * {@code data}; and so that it listens on no fixed port that another build could hold
 * (the FTP server's control and passive ports are picked free).
 */
public final class WharfTestProperties {

	private WharfTestProperties() {
	}

	/**
	 * Registers a state folder under {@code temp} and a {@code memory} mount named
	 * {@code data}.
	 * @param registry from a {@code @DynamicPropertySource} method
	 * @param temp the test class's temporary folder
	 */
	public static void memoryMount(DynamicPropertyRegistry registry, Path temp) {
		registry.add("wharf.state-dir", () -> temp.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "memory");
		freePorts(registry);
	}

	/**
	 * Registers a state folder under {@code temp} and a {@code local} mount named
	 * {@code data} on {@code temp/data}.
	 * @param registry from a {@code @DynamicPropertySource} method
	 * @param temp the test class's temporary folder
	 */
	public static void localMount(DynamicPropertyRegistry registry, Path temp) {
		registry.add("wharf.state-dir", () -> temp.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", () -> temp.resolve("data").toString());
		freePorts(registry);
	}

	private static void freePorts(DynamicPropertyRegistry registry) {
		registry.add("wharf.ftp.port", () -> "0");
		registry.add("wharf.ftp.passive-ports", () -> "0");
	}

}
