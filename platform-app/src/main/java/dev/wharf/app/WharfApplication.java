package dev.wharf.app;

import dev.wharf.core.concurrent.DroppedErrors;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Wharf: files over HTTP, FTP, a build cache and static hosting from one server.
 * {@code java -jar wharf.jar} starts it; {@code java -jar wharf.jar hash-password} prints
 * a password hash for {@code wharf.security.users}.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class WharfApplication {

	/**
	 * Starts Wharf, or runs a command.
	 * @param args Spring Boot arguments such as {@code --server.port=9000}, or
	 * {@code hash-password}
	 */
	public static void main(String[] args) {
		CommonsLoggingFactory.selectSlf4j();
		if (args.length > 0 && HashPasswordCommand.NAME.equals(args[0])) {
			System.exit(HashPasswordCommand.run(System.console(), System.in, System.out, System.err));
		}
		// Reactor's hooks are global to the JVM: the process installs them, once, before
		// anything subscribes.
		DroppedErrors.install();
		SpringApplication.run(WharfApplication.class, args);
	}

}
