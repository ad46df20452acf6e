package dev.wharf.filemanager.thumbnail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thumbnails in a JVM limited as the p128 profile limits Wharf: its options
 * (platform-app's {@code src/main/jvm/p128.options}: a 48 MB heap, serial GC), its two
 * processors, and 24 MB of the heap held live, as much as a running Wharf keeps
 * (platform-app/src/main/jvm/README.md). A real 30000 x 700 panorama, as JPEG and as PNG,
 * gets its thumbnail, made at the same time as the other and as a 66-megapixel PNG of one
 * row (refused from its header): the decoding fits in what is left. Decoding the panorama
 * whole, as happened when the subsampling followed the short side, takes 63 MB.
 */
class SmallHeapThumbnailTests {

	private static final Path PROFILES = Path.of("../platform-app/src/main/jvm").toAbsolutePath().normalize();

	/**
	 * The live heap of a running Wharf under p128 (about 24-25 MB after a collection,
	 * measured in the soak).
	 */
	private static final int LIVE_HEAP_MEGABYTES = 24;

	@TempDir
	Path temp;

	@Test
	void aPanoramaGetsAThumbnailUnderP128AndAThinBombIsRefused() throws IOException, InterruptedException {
		Path jpeg = Files.write(this.temp.resolve("panorama.jpg"), Images.panorama(30_000, 700, "jpg"));
		Path png = Files.write(this.temp.resolve("panorama.png"), Images.panorama(30_000, 700, "png"));
		Path bomb = Files.write(this.temp.resolve("thin.png"), Images.thinPng(66_000_000));
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(entries(PROFILES.resolve("p128.options")));
		command.add("-XX:ActiveProcessorCount=" + cores(PROFILES.resolve("p128.options")));
		if (Runtime.version().feature() >= 22) {
			// As bin/wharf and the jar's manifest do: JNA loads libjpeg-turbo, a
			// restricted method the JVM otherwise warns about.
			command.add("--enable-native-access=ALL-UNNAMED");
		}
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), SmallHeapThumbnails.class.getName(),
				Integer.toString(LIVE_HEAP_MEGABYTES), jpeg.toString(), png.toString(), bomb.toString()));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		for (String variable : entries(PROFILES.resolve("p128.env"))) {
			String[] pair = variable.split("=", 2);
			builder.environment().put(pair[0], pair[1]);
		}
		Process java = builder.start();
		String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(java.waitFor(120, TimeUnit.SECONDS)).isTrue();
		assertThat(java.exitValue()).as(output).isZero();
		assertThat(output.lines().filter((line) -> !line.isBlank()).toList()).as(output)
			.containsExactly("panorama.jpg OK 800x19", "panorama.png OK 800x19",
					"thin.png REFUSED 422 Image too large to preview: 66000000 x 1 pixels need 756 MB to decode (at most 6 MB)");
	}

	/**
	 * A profile file's entries: one a line, {@code #} starts a comment (as the profiles'
	 * README says).
	 */
	private static List<String> entries(Path file) throws IOException {
		assertThat(file).as("the JVM profile file").isRegularFile();
		return Files.readAllLines(file)
			.stream()
			.map(line -> line.replaceFirst("(^|\\s)#.*$", "").strip())
			.filter(line -> !line.isEmpty())
			.toList();
	}

	/**
	 * The processors a profile is for, from its first line ({@code # 128 MB, 2 cores.}).
	 */
	private static int cores(Path options) throws IOException {
		Matcher budget = Pattern.compile("(\\d+) cores?").matcher(Files.readAllLines(options).get(0));
		assertThat(budget.find()).as("the profile's first line names its cores").isTrue();
		return Integer.parseInt(budget.group(1));
	}

}
