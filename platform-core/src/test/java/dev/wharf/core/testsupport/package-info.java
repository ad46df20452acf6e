/**
 * Test support shared by every module: machine requirements that fail in CI and skip elsewhere, a tmpfs for disk-full tests, and a real OpenSSH sshd.
 */
package dev.wharf.core.testsupport;
