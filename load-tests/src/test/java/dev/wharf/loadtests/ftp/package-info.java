/**
 * A small FTP load driver (Gatling has no FTP) for soak runs and the smoke run; the published pyftpdlib table
 * is driven by {@code ftpbench} itself from {@code load-tests/run.sh}.
 */
@NullMarked
package dev.wharf.loadtests.ftp;

import org.jspecify.annotations.NullMarked;
