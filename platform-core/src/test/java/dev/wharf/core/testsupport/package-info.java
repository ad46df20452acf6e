/**
 * Test support shared by every module: machine requirements that fail in CI and skip elsewhere, a tmpfs for disk-full tests, a real OpenSSH sshd, and an HTTP client that reads slowly or not at all.
 */
package dev.wharf.core.testsupport;
