/**
 * A small FTP load driver (Gatling has no FTP) for the smoke run and soak runs by hand;
 * the published pyftpdlib table is driven by {@code ftpbench} itself from
 * {@code load-tests/run.sh}.
 */
@NullMarked
package dev.wharf.loadtests.ftp;

import org.jspecify.annotations.NullMarked;
