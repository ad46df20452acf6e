/**
 * Several Wharf processes (the packaged jar) sharing one folder and one Redis behind
 * haproxy in round-robin.
 */
package dev.wharf.app.replicas;
