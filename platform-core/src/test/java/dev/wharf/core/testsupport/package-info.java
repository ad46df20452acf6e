/**
 * Test support shared by every module: machine requirements that fail in CI and skip elsewhere, free ports, a tmpfs for disk-full tests, real sshd, slapd, redis-server and haproxy processes, and an HTTP client that reads slowly or not at all.
 */
package dev.wharf.core.testsupport;
