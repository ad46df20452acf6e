package dev.wharf.core.web;

import java.util.Map;

import dev.wharf.core.config.InvalidConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MediaTypeRegistry}: one type per extension for every module, whether
 * it is worth compressing, and whether it is compressed already.
 */
class MediaTypeRegistryTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = {
			// name | type | compressible | already compressed
			// Spring's mime.types, text with charset=utf-8
			"page.html|text/html; charset=utf-8|true|false", "PAGE.HTM|text/html; charset=utf-8|true|false",
			"style.css|text/css; charset=utf-8|true|false", "app.js|text/javascript; charset=utf-8|true|false",
			"module.mjs|text/javascript; charset=utf-8|true|false", "notes.txt|text/plain; charset=utf-8|true|false",
			"Main.java|text/x-java-source; charset=utf-8|true|false", "data.csv|text/csv; charset=utf-8|true|false",
			"data.json|application/json|true|false", "feed.rss|application/rss+xml|true|false",
			"logo.svg|image/svg+xml|true|false", "app.wasm|application/wasm|true|false", "font.ttf|font/ttf|true|false",
			"font.woff2|font/woff2|false|false", "favicon.ico|image/x-icon|true|false",
			"photo.JPG|image/jpeg|false|true", "photo.jpeg|image/jpeg|false|true", "icon.png|image/png|false|true",
			"anim.gif|image/gif|false|true", "pic.webp|image/webp|false|true", "pic.avif|image/avif|false|true",
			"song.mp3|audio/mpeg|false|true", "song.ogg|audio/ogg|false|true", "film.mp4|video/mp4|false|true",
			"film.mkv|video/x-matroska|false|true", "film.avi|video/x-msvideo|false|true",
			"film.mov|video/quicktime|false|true", "film.webm|video/webm|false|true",
			"all.zip|application/zip|false|true", "all.rar|application/x-rar-compressed|false|true",
			"all.7z|application/x-7z-compressed|false|true", "all.tar.bz2|application/x-bzip2|false|true",
			"all.tar.xz|application/x-xz|false|true", "lib.jar|application/java-archive|false|true",
			"app.apk|application/vnd.android.package-archive|false|true", "doc.pdf|application/pdf|false|true",
			"doc.docx|application/vnd.openxmlformats-officedocument.wordprocessingml.document|false|true",
			"sheet.xlsx|application/vnd.openxmlformats-officedocument.spreadsheetml.sheet|false|true",
			"talk.odp|application/vnd.oasis.opendocument.presentation|false|true",
			"book.epub|application/epub+zip|false|true", "all.tar|application/x-tar|false|false",
			"old.doc|application/msword|false|false", "disk.iso|application/x-iso9660-image|false|false",
			// Wharf's additions and corrections
			"README.md|text/markdown; charset=utf-8|true|false", "subs.vtt|text/vtt; charset=utf-8|true|false",
			"feed.xml|text/xml; charset=utf-8|true|false", "app.js.map|application/json|true|false",
			"site.webmanifest|application/manifest+json|true|false", "data.jsonld|application/ld+json|true|false",
			"all.tar.gz|application/gzip|false|true", "all.tgz|application/gzip|false|true",
			"app.js.br|application/x-brotli|false|true", "all.zst|application/zstd|false|true",
			"pkg.deb|application/vnd.debian.binary-package|false|true", "pkg.rpm|application/x-rpm|false|true",
			"app.war|application/java-archive|false|true", "photo.heic|image/heic|false|true",
			"clip.m4v|video/mp4|false|true", "sound.wav|audio/wav|false|false", "sound.flac|audio/flac|false|true",
			"setup.exe|application/octet-stream|false|false", "setup.dmg|application/octet-stream|false|false",
			// Unknown
			"data.bin|application/octet-stream|false|false", "notes.wharfdoc|application/octet-stream|false|false",
			"Makefile|application/octet-stream|false|false", "dot.|application/octet-stream|false|false",
			".profile|application/octet-stream|false|false" })
	void oneTypePerExtension(String name, String type, boolean compressible, boolean alreadyCompressed) {
		MediaTypeRegistry registry = MediaTypeRegistry.defaults();
		assertThat(registry.forName(name)).isEqualTo(type);
		assertThat(MediaTypeRegistry.isCompressible(type)).as("compressible").isEqualTo(compressible);
		assertThat(MediaTypeRegistry.isAlreadyCompressed(type)).as("already compressed").isEqualTo(alreadyCompressed);
		assertThat(compressible && alreadyCompressed).as("never both").isFalse();
	}

	@Test
	void overridesComeFirstInAnyCase() {
		MediaTypeRegistry registry = MediaTypeRegistry.withOverrides(
				Map.of("MD", "text/x-markdown", "log", "text/plain; charset=utf-8", "png", "image/x-wharf"),
				"sites[0]");
		assertThat(registry.forName("README.md")).isEqualTo("text/x-markdown");
		assertThat(registry.forName("server.LOG")).isEqualTo("text/plain; charset=utf-8");
		assertThat(registry.forName("a.png")).isEqualTo("image/x-wharf");
		assertThat(registry.forName("a.tar.gz")).isEqualTo("application/gzip");
		assertThat(MediaTypeRegistry.defaults().forName("a.png")).isEqualTo("image/png");
		assertThat(MediaTypeRegistry.withOverrides(Map.of(), "sites[0]")).isSameAs(MediaTypeRegistry.defaults());
	}

	@Test
	void malformedOverridesNameTheirProperty() {
		assertThatExceptionOfType(InvalidConfigurationException.class)
			.isThrownBy(() -> MediaTypeRegistry.withOverrides(Map.of("x.y", "text/plain"), "sites[0].content-types"))
			.satisfies(ex -> assertThat(ex.property()).isEqualTo("sites[0].content-types"));
		assertThatExceptionOfType(InvalidConfigurationException.class)
			.isThrownBy(() -> MediaTypeRegistry.withOverrides(Map.of("md", "not a type"), "sites[0].content-types"))
			.satisfies(ex -> assertThat(ex.property()).isEqualTo("sites[0].content-types.md"));
	}

	@Test
	void parametersAndCaseDoNotChangeWhatATypeIs() {
		assertThat(MediaTypeRegistry.isCompressible("Text/HTML; charset=utf-8")).isTrue();
		assertThat(MediaTypeRegistry.isAlreadyCompressed(" IMAGE/JPEG ;q=1")).isTrue();
	}

}
