/**
 * Test support shared by every module: machine requirements that fail in CI and skip elsewhere, free ports, a tmpfs for disk-full tests, and real sshd, redis-server and haproxy processes.
 */
package dev.wharf.core.testsupport;
