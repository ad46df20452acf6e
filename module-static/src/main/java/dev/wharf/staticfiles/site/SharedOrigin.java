package dev.wharf.staticfiles.site;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.security.MountAccess;
import dev.wharf.core.security.User;

/**
 * What static sites share their origin with: whether the file manager answers on the same
 * HTTP server (its API, and the visitor's session cookie, are then same-origin for every
 * page of a site that does not have its host name to itself), and who other than admins
 * can write each mount (an HTML file such a user puts in a published folder becomes such
 * a page).
 *
 * @param fileManager whether the file manager answers on the same server and port
 * @param nonAdminWriters by mount name, the users other than admins who may write the
 * mount
 */
public record SharedOrigin(boolean fileManager, Map<String, List<String>> nonAdminWriters) {

	/** No file manager on the server: nothing shares the sites' origin. */
	public static final SharedOrigin NONE = new SharedOrigin(false, Map.of());

	public SharedOrigin {
		nonAdminWriters = Map.copyOf(nonAdminWriters);
	}

	/**
	 * Finds who other than admins can write each mount.
	 * @param fileManager whether the file manager answers on the same server and port
	 * @param users every user
	 * @return what shares the sites' origin
	 */
	public static SharedOrigin of(boolean fileManager, Collection<User> users) {
		Map<String, List<String>> writers = new HashMap<>();
		for (User user : users) {
			if (!user.isAdmin()) {
				user.mounts().forEach((mount, access) -> {
					if (access == MountAccess.READ_WRITE) {
						writers.computeIfAbsent(mount, name -> new ArrayList<>()).add(user.name());
					}
				});
			}
		}
		return new SharedOrigin(fileManager, writers);
	}

}
