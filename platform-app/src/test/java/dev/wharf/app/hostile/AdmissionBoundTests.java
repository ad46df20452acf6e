package dev.wharf.app.hostile;

import java.time.Duration;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code wharf.http.admission.max-requests} in the whole application: with a bound of
 * one, a request waits while an upload holds the only slot (a client that trickles its
 * body within the body timeout keeps it, which is the price of the bound), is answered
 * once the upload is complete, and the slot is free again afterwards.
 */
class AdmissionBoundTests extends HostileServerTestBase {

	@DynamicPropertySource
	static void oneSlot(DynamicPropertyRegistry registry) {
		registry.add("wharf.http.admission.max-requests", () -> "1");
	}

	@Test
	void aRequestWaitsWhileTheOnlySlotIsTakenAndIsAnsweredWhenItFrees() throws Exception {
		String cookie = alice();
		String name = unique("admitted");
		int length = 20;
		try (RawHttp upload = RawHttp.open(this.port); RawHttp listing = RawHttp.open(this.port)) {
			upload.send("POST /api/files/save?path=/data/" + name + " HTTP/1.1\r\nHost: x\r\nCookie: " + cookie
					+ "\r\nX-Requested-With: XmlHttpRequest\r\nExpect: 100-continue\r\nContent-Length: " + length
					+ "\r\n\r\n");
			// 100 Continue: the upload is being handled (it holds the slot) before the
			// listing arrives.
			assertThat(upload.readHead().status()).isEqualTo(100);
			upload.send("x");
			listing.send("GET /api/files/ls?path=/data/ HTTP/1.1\r\nHost: x\r\nCookie: " + cookie
					+ "\r\nX-Requested-With: XmlHttpRequest\r\n\r\n");
			// The rest of the body a byte every 150 ms, each well within the body
			// timeout: the listing is not answered meanwhile.
			for (int sent = 1; sent < length; sent++) {
				assertThat(listing.readWithin(Duration.ofMillis(150))).as("an answer while the slot is taken").isNull();
				upload.send("x");
			}
			assertThat(upload.read().status()).isEqualTo(200);
			RawHttp.Response answer = listing.read();
			assertThat(answer.status()).isEqualTo(200);
			assertThat(answer.text()).contains(name);
		}
		serverStillServes();
		serverStillServes();
	}

}
