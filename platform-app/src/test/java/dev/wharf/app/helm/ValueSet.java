package dev.wharf.app.helm;

import java.nio.file.Path;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The value sets the chart is rendered with: its defaults and the files in
 * {@code helm/wharf/ci}.
 */
enum ValueSet {

	/** The chart's own values.yaml only. */
	DEFAULTS(null),

	/**
	 * Every module, the chart's memcached, TLS, users, Ingress, NetworkPolicy and
	 * ServiceMonitor.
	 */
	ALL_MODULES("all-modules-values.yaml"),

	/** FTP and HTTP on NodePorts, with an external address. */
	FTP_NODE_PORT("ftp-nodeport-values.yaml"),

	/** The build cache on memcached servers outside the chart. */
	EXTERNAL_MEMCACHED("external-memcached-values.yaml"),

	/** The small profile: p96 options in 160Mi, one core. */
	PROFILE_SMALL("profile-small-values.yaml"),

	/**
	 * Replicas on a shared volume with the chart's Redis, an autoscaler and a disruption
	 * budget.
	 */
	SCALED("scaled-values.yaml"),

	/**
	 * Three replicas with FTP, an sftp mount and a Redis with sentinels outside the
	 * chart.
	 */
	EXTERNAL_REDIS("external-redis-values.yaml"),

	/**
	 * Every mount on S3 (one with the pod's role, one with keys from a Secret), two
	 * replicas, no volume.
	 */
	S3("s3-values.yaml");

	private final @Nullable String file;

	ValueSet(@Nullable String file) {
		this.file = file;
	}

	/** The values files to pass to helm: none for the defaults. */
	List<Path> files() {
		return (this.file != null) ? List.of(WharfChart.DIRECTORY.resolve("ci").resolve(this.file)) : List.of();
	}

}
