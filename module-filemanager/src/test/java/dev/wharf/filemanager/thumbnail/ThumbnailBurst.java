package dev.wharf.filemanager.thumbnail;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import reactor.core.scheduler.Schedulers;

/**
 * Many thumbnail requests at once, over real HTTP, each for a file of its own (so none
 * shares another's computation), written straight into the local mount's folder (so no
 * thumbnail is made in the background first). Records every error Reactor reports to a
 * thread's uncaught-exception handler meanwhile (a pool refusing a task, for one).
 */
final class ThumbnailBurst implements AutoCloseable {

	private final String hook = "thumbnail-burst-" + System.identityHashCode(this);

	private final Queue<String> uncaught = new ConcurrentLinkedQueue<>();

	private final List<String> paths = new ArrayList<>();

	/**
	 * Writes the files.
	 * @param folder the local mount's folder on disk
	 * @param prefix the folder inside the mount, such as {@code burst-1234}
	 * @param count how many files
	 * @param image the image each holds
	 */
	ThumbnailBurst(Path folder, String prefix, int count, byte[] image) throws Exception {
		Path directory = Files.createDirectories(folder.resolve(prefix));
		for (int i = 0; i < count; i++) {
			Files.write(directory.resolve("photo-" + i + ".jpg"), image);
			this.paths.add("/data/" + prefix + "/photo-" + i + ".jpg");
		}
		Schedulers.onHandleError(this.hook, (thread, error) -> this.uncaught.add(thread.getName() + ": " + error));
	}

	/**
	 * Requests every file's thumbnail at once, each on its own connection.
	 * @param port the server's port
	 * @param cookie the session cookie
	 * @return the answers, in the order of the files
	 */
	List<HttpResponse<byte[]>> send(int port, String cookie) {
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(30))
			.build();
		List<CompletableFuture<HttpResponse<byte[]>>> answers = new ArrayList<>();
		for (String path : this.paths) {
			HttpRequest request = HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/files/cat?thumbnail=true&path=" + path))
				.header("Cookie", cookie)
				.timeout(Duration.ofSeconds(120))
				.build();
			answers.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
		}
		return answers.stream().map(CompletableFuture::join).toList();
	}

	/** What reached an uncaught-exception handler since the files were written. */
	List<String> uncaught() {
		return List.copyOf(this.uncaught);
	}

	@Override
	public void close() {
		Schedulers.resetOnHandleError(this.hook);
	}

}
