package dev.wharf.loadtests.simulations;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import io.gatling.javaapi.core.ChainBuilder;

import dev.wharf.loadtests.AbLevels;
import dev.wharf.loadtests.Parameters;
import dev.wharf.loadtests.TableSimulation;

import static io.gatling.javaapi.core.CoreDsl.ByteArrayBody;
import static io.gatling.javaapi.core.CoreDsl.bodyLength;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.md5;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * RBCS's benchmark table ({@code rbcs-cli client benchmark}): for each value size (128 B,
 * 512 B, 4 KiB, 64 KiB) and each number of client connections (10, 100), PUT
 * {@code entries} new entries under 32-hex-digit keys (the shape of a Gradle key), then
 * GET every one of them back and compare it; req/s is entries divided by the wall time of
 * each phase, as RBCS computes it. Values are one repeated byte like RBCS's default
 * ({@code -Drandom=true} for incompressible bytes, the same random value for every key).
 *
 * <p>
 * Parameters (besides {@link TableSimulation}'s): {@code sizes} (default
 * {@code 128,512,4K,64K}), {@code connections} (default {@code 10,100}), {@code entries}
 * (default 10000; RBCS's default is 1000), {@code cachePath} (default {@code /cache}),
 * {@code user} and {@code password} (Basic auth, sent on every request; RBCS's runs had
 * authentication off), {@code random}, {@code warmUp} (default 4000: PUTs and as many
 * GETs of 4 KiB values at 10 connections before the first level, not counted; 0 for
 * none).
 */
public class RbcsSimulation extends TableSimulation {

	/** Builds the levels from the system properties. */
	public RbcsSimulation() {
		super("rbcs");
		String cachePath = Parameters.text("cachePath", "/cache");
		int entries = Parameters.positive("entries", 10_000);
		boolean random = Parameters.flag("random", false);
		String authorization = "Basic " + Base64.getEncoder()
			.encodeToString((Parameters.text("user", "bench") + ":" + Parameters.text("password", ""))
				.getBytes(StandardCharsets.UTF_8));
		long salt = new SplittableRandom().nextLong();
		long maxBytes = Parameters.byteSize("maxBytes",
				Parameters.text("maxBytes", Integer.toString(Integer.MAX_VALUE)));
		int warmUp = Parameters.nonNegative("warmUp", 4000);
		if (warmUp > 0) {
			byte[] value = value(4096, random);
			String md5 = HexFormat.of().formatHex(digest(value));
			// Key space below any level's (levels put the size index at bit 40 and
			// connections at bit 32).
			long keySpace = salt - (1L << 48);
			int connections = capped(10);
			int requests = scaled(warmUp, connections);
			this.levels.warmUp(connections, requests, put(cachePath, keySpace, value, authorization));
			this.levels.warmUp(connections, requests, get(cachePath, keySpace, value.length, md5, authorization));
		}
		List<String> sizes = Parameters.names("sizes", "128,512,4K,64K");
		for (int s = 0; s < sizes.size(); s++) {
			int size = Parameters.byteSize("sizes", sizes.get(s));
			byte[] value = value(size, random);
			String md5 = HexFormat.of().formatHex(digest(value));
			String label = Parameters.byteLabel(size);
			int levelEntries = (int) Math.max(1, Math.min(entries, maxBytes / size));
			for (int connections : Parameters.positives("connections", "10,100")) {
				long keySpace = salt + ((long) s << 40) + ((long) connections << 32);
				level("PUT " + label, connections, levelEntries, put(cachePath, keySpace, value, authorization));
				level("GET " + label, connections, levelEntries, get(cachePath, keySpace, size, md5, authorization));
			}
		}
		start();
	}

	private static ChainBuilder put(String cachePath, long keySpace, byte[] value, String authorization) {
		AtomicLong next = new AtomicLong();
		return exec((session) -> session.set("key", key(keySpace, next.getAndIncrement())))
			.exec(AbLevels.checked(http("PUT").put(cachePath + "/#{key}")
				.header("Authorization", authorization)
				.header("Content-Type", "application/octet-stream")
				.body(ByteArrayBody(value)), status().in(200, 201, 204)));
	}

	private static ChainBuilder get(String cachePath, long keySpace, int size, String md5, String authorization) {
		AtomicLong next = new AtomicLong();
		return exec((session) -> session.set("key", key(keySpace, next.getAndIncrement())))
			.exec(AbLevels.checked(http("GET").get(cachePath + "/#{key}").header("Authorization", authorization),
					status().is(200), bodyLength().is(size), md5().is(md5)));
	}

	static String key(long keySpace, long index) {
		return String.format(Locale.ROOT, "%016x%016x", keySpace, index);
	}

	private static byte[] value(int size, boolean random) {
		byte[] value = new byte[size];
		if (random) {
			new SplittableRandom(size).nextBytes(value);
		}
		else {
			Arrays.fill(value, (byte) 'x');
		}
		return value;
	}

	private static byte[] digest(byte[] value) {
		try {
			return MessageDigest.getInstance("MD5").digest(value);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
