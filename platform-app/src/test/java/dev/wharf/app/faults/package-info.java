/**
 * Backend faults against the whole application over its real protocols: disk full, sshd
 * and memcached killed and restarted, a mount's folder removed.
 */
@NullMarked
package dev.wharf.app.faults;

import org.jspecify.annotations.NullMarked;
