/**
 * Test support shared by every module: machine requirements that fail in CI and skip
 * elsewhere, free ports, a tmpfs for disk-full tests, real sshd, slapd, redis-server and
 * haproxy processes, and the one raw HTTP client (RawHttp) for requests and reads no
 * client library makes.
 */
package dev.wharf.core.testsupport;
