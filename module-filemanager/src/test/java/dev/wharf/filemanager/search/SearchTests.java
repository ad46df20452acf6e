package dev.wharf.filemanager.search;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/files/search}, over real HTTP.
 */
class SearchTests extends FileManagerTestBase {

	private String cookie;

	@BeforeEach
	void login() {
		this.cookie = alice();
	}

	@Test
	void findsNamesIgnoringCaseBelowAFolder() {
		String root = "/scratch/" + unique("search");
		this.api.post("/api/files/mkdir?path=" + root).browser(this.cookie).send();
		this.api.post("/api/files/mkdir?path=" + root + "/Holiday-Photos").browser(this.cookie).send();
		this.api.post("/api/files/save?path=" + root + "/Holiday-Photos/beach-HOLIDAY.jpg")
			.browser(this.cookie)
			.body("x")
			.send();
		this.api.post("/api/files/save?path=" + root + "/other.txt").browser(this.cookie).body("x").send();
		Answer answer = this.api.get("/api/files/search?path=" + root + "&q=holiday").browser(this.cookie).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.names()).containsExactly("Holiday-Photos", "beach-HOLIDAY.jpg");
		JsonNode file = answer.json().path("results").get(1);
		assertThat(file.path("path").stringValue()).isEqualTo(root + "/Holiday-Photos/beach-HOLIDAY.jpg");
		assertThat(file.path("type").stringValue()).isEqualTo("file");
		assertThat(file.path("size").longValue()).isEqualTo(1);
		assertThat(answer.json().path("results").get(0).path("path").stringValue()).endsWith("/Holiday-Photos/");
	}

	@Test
	void searchesEveryVisibleMountFromTheTopButNoOther() {
		String name = unique("needle");
		this.api.post("/api/files/save?path=/data/" + name).browser(this.cookie).body("x").send();
		this.api.post("/api/files/save?path=/scratch/" + name).browser(this.cookie).body("x").send();
		Answer answer = this.api.get("/api/files/search?q=" + name).browser(this.cookie).send();
		assertThat(answer.json().path("results").valueStream().map(r -> r.path("path").stringValue()))
			.containsExactlyInAnyOrder("/data/" + name, "/scratch/" + name);
		String bob = this.api.login("bob", BOB_PASSWORD);
		assertThat(this.api.get("/api/files/search?q=" + name)
			.browser(bob)
			.send()
			.json()
			.path("results")
			.valueStream()
			.map(r -> r.path("path").stringValue())).containsExactly("/data/" + name);
	}

	@Test
	void badSearchesAreRefused() {
		assertThat(this.api.get("/api/files/search?path=/").browser(this.cookie).send().status()).isEqualTo(400);
		assertThat(this.api.get("/api/files/search?q=%20%20").browser(this.cookie).send().status()).isEqualTo(400);
		assertThat(this.api.get("/api/files/search?q=" + "x".repeat(300)).browser(this.cookie).send().status())
			.isEqualTo(400);
		assertThat(this.api.get("/api/files/search?q=x&path=/scratch/" + unique("none"))
			.browser(this.cookie)
			.send()
			.status()).isEqualTo(404);
		String file = "/scratch/" + unique("file");
		this.api.post("/api/files/touch?path=" + file).browser(this.cookie).send();
		assertThat(this.api.get("/api/files/search?q=x&path=" + file).browser(this.cookie).send().status())
			.isEqualTo(409);
	}

}
