/**
 * The FTP engine: the one package that touches Apache FtpServer and MINA. It runs the
 * control connections (listener, line decoder, command dispatch, TLS filter) and adapts
 * Wharf's commands, session, user, file view and data connection set-up to FtpServer's
 * interfaces.
 */
@NullMarked
package dev.wharf.ftp.engine;

import org.jspecify.annotations.NullMarked;
