package dev.wharf.filemanager.autoconfigure;

import java.nio.file.Path;

import dev.wharf.core.autoconfigure.SecurityAutoConfiguration;
import dev.wharf.core.autoconfigure.SessionAutoConfiguration;
import dev.wharf.core.autoconfigure.StorageAutoConfiguration;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.testsupport.Requirements;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.http.ApiDispatcher;
import dev.wharf.filemanager.thumbnail.ImageThumbnailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FileManagerAutoConfiguration}.
 */
class FileManagerAutoConfigurationTests {

	@TempDir
	Path state;

	private ReactiveWebApplicationContextRunner runner() {
		return new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class, SecurityAutoConfiguration.class,
					SessionAutoConfiguration.class, FileManagerAutoConfiguration.class))
			.withPropertyValues("wharf.state-dir=" + this.state, "wharf.storage.mounts.data.type=memory",
					"wharf.storage.mounts.scratch.type=memory");
	}

	@Test
	void isOnByDefaultAndOffWhenDisabled() {
		runner().run(context -> assertThat(context).hasSingleBean(ApiDispatcher.class));
		runner().withPropertyValues("wharf.filemanager.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(ApiDispatcher.class));
	}

	@Test
	void needsAReactiveWebApplication() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(FileManagerAutoConfiguration.class))
			.run(context -> assertThat(context).doesNotHaveBean(ApiDispatcher.class));
	}

	@Test
	void exposesTheNamedMountsOrAll() {
		runner().run(context -> assertThat(context.getBean(MountTree.class).mounts()).hasSize(2));
		runner().withPropertyValues("wharf.filemanager.mounts=scratch")
			.run(context -> assertThat(context.getBean(MountTree.class).mounts()).singleElement()
				.satisfies(mount -> assertThat(mount.name()).isEqualTo("scratch")));
	}

	@Test
	void jpegsAreDecodedScaledByLibjpegTurboUnlessSwitchedOff() {
		Requirements.require(new ImageThumbnailer(200, 1, 1, true).decodesJpegScaled(),
				"libturbojpeg (apt-get install libturbojpeg0)");
		runner().run(context -> assertThat(context.getBean(ImageThumbnailer.class).decodesJpegScaled()).isTrue());
		runner().withPropertyValues("wharf.filemanager.thumbnails.native-jpeg=false")
			.run(context -> assertThat(context.getBean(ImageThumbnailer.class).decodesJpegScaled()).isFalse());
	}

	@Test
	void badSettingsStopStartUpNamingTheProperty() {
		runner().withPropertyValues("wharf.filemanager.mounts=nothere").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationException.class)
				.hasMessageContaining("wharf.filemanager.mounts");
		});
		runner().withPropertyValues("wharf.filemanager.thumbnails.size=5").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("wharf.filemanager.thumbnails.size");
		});
		runner().withPropertyValues("wharf.filemanager.max-upload-size=0").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("wharf.filemanager.max-upload-size");
		});
		for (String perUser : new String[] { "-1", "5" }) {
			runner()
				.withPropertyValues("wharf.filemanager.max-concurrent-zips=4",
						"wharf.filemanager.max-zips-per-user=" + perUser)
				.run(context -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.hasMessageContaining("wharf.filemanager.max-zips-per-user");
				});
		}
	}

	@Test
	void oneUserMayHaveHalfTheZipSlotsUnlessConfigured() {
		runner().run(context -> assertThat(context.getBean(FileManagerProperties.class).effectiveZipsPerUser())
			.isEqualTo(2));
		runner().withPropertyValues("wharf.filemanager.max-concurrent-zips=1")
			.run(context -> assertThat(context.getBean(FileManagerProperties.class).effectiveZipsPerUser())
				.isEqualTo(1));
		runner().withPropertyValues("wharf.filemanager.max-concurrent-zips=3")
			.run(context -> assertThat(context.getBean(FileManagerProperties.class).effectiveZipsPerUser())
				.isEqualTo(1));
		runner().withPropertyValues("wharf.filemanager.max-zips-per-user=4")
			.run(context -> assertThat(context.getBean(FileManagerProperties.class).effectiveZipsPerUser())
				.isEqualTo(4));
	}

}
