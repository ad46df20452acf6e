/**
 * Test support shared by every module: machine requirements that fail in CI and skip elsewhere, a tmpfs for disk-full tests, a real OpenSSH sshd, and the one raw HTTP client (RawHttp) for requests and reads no client library makes.
 */
package dev.wharf.core.testsupport;
