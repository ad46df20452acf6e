package dev.wharf.core.security;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.core.storage.memory.MemoryStorage;
import dev.wharf.core.storage.mount.Mount;
import org.junit.jupiter.api.Test;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static dev.wharf.core.storage.StorageTestSupport.content;
import static dev.wharf.core.storage.StorageTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link AuthorizedStorage}.
 */
class AuthorizedStorageTests {

	final Mount mount = new Mount("data", "memory", new MemoryStorage("data", 1 << 20));

	final StoragePath file = StoragePath.parse("/f");

	@Test
	void readOnlyUsersReadButChangeNothing() {
		this.mount.storage().write(this.file, content("x"), WriteOptions.replace()).block(TIMEOUT);
		AuthorizedStorage view = AuthorizedStorage.of(this.mount, user(MountAccess.READ_ONLY));
		assertThat(text(view.read(this.file, ByteRange.all()))).isEqualTo("x");
		assertThat(view.list(StoragePath.root()).count().block(TIMEOUT)).isEqualTo(1);
		assertThatThrownBy(() -> view.write(this.file, content("y"), WriteOptions.replace()).block(TIMEOUT))
			.isInstanceOf(AccessDeniedException.class);
		assertThatThrownBy(() -> view.delete(this.file, false).block(TIMEOUT))
			.isInstanceOf(AccessDeniedException.class);
		assertThatThrownBy(() -> view.move(this.file, StoragePath.parse("/g"), false).block(TIMEOUT))
			.isInstanceOf(AccessDeniedException.class);
		assertThatThrownBy(() -> view.copy(this.file, StoragePath.parse("/g"), false).block(TIMEOUT))
			.isInstanceOf(AccessDeniedException.class);
		assertThatThrownBy(() -> view.createDirectory(StoragePath.parse("/d")).block(TIMEOUT))
			.isInstanceOf(AccessDeniedException.class);
		assertThat(view.readAtHand(this.file, 10)).isNotNull();
		Instant written = view.stat(this.file).block(TIMEOUT).lastModified();
		assertThatThrownBy(() -> view.setLastModified(this.file, Instant.EPOCH).block(TIMEOUT))
			.isInstanceOf(AccessDeniedException.class);
		assertThat(text(this.mount.storage().read(this.file, ByteRange.all()))).isEqualTo("x");
		assertThat(this.mount.storage().stat(this.file).block(TIMEOUT).lastModified()).isEqualTo(written);
	}

	@Test
	void readWriteUsersChangeAndOthersSeeNothing() {
		AuthorizedStorage view = AuthorizedStorage.of(this.mount, user(MountAccess.READ_WRITE));
		view.write(this.file, content("y"), WriteOptions.replace()).block(TIMEOUT);
		assertThat(text(view.read(this.file, ByteRange.all()))).isEqualTo("y");
		assertThat(view.setLastModified(this.file, Instant.EPOCH).block(TIMEOUT).lastModified())
			.isEqualTo(Instant.EPOCH);
		assertThatThrownBy(() -> AuthorizedStorage.of(this.mount, user(MountAccess.NONE)))
			.isInstanceOf(AccessDeniedException.class);
	}

	private static User user(MountAccess access) {
		return new User("u", Set.of(Role.USER), (access == MountAccess.NONE) ? Map.of() : Map.of("data", access));
	}

}
