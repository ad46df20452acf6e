package dev.wharf.core.share;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share store contract on the state file, with "replicas" sharing the state folder;
 * and what only the file does: shares and their download counts survive a restart, the
 * file is its owner's only, and a file with a line that is no share still loads.
 */
class FileShareStoreContractTests extends AbstractShareStoreContractTests {

	@TempDir
	Path state;

	private final List<FileShareStore> stores = new ArrayList<>();

	@Override
	protected FileShareStore store() {
		FileShareStore created = new FileShareStore(this.state.resolve(FileShareStore.FILE_NAME),
				Schedulers.newBoundedElastic(1, 100, "test-shares"), Duration.ofMillis(200));
		this.stores.add(created);
		return created;
	}

	@Override
	protected Duration propagation() {
		return Duration.ofSeconds(10);
	}

	@AfterEach
	void close() {
		this.stores.forEach(FileShareStore::close);
	}

	@Test
	void sharesAndTheirDownloadsSurviveARestart() throws Exception {
		FileShareStore before = store();
		Share share = share("alice", 4);
		before.put(share).block(TIMEOUT);
		before.countDownload(share.id()).block(TIMEOUT);
		Share revoked = share("alice", 0);
		before.put(revoked).block(TIMEOUT);
		before.remove("alice", revoked.id()).block(TIMEOUT);
		before.close();
		FileShareStore after = store();
		assertThat(after.find(share.id()).block(TIMEOUT)).isEqualTo(share.withDownloads(1));
		assertThat(after.find(revoked.id()).block(TIMEOUT)).isNull();
		Path file = this.state.resolve(FileShareStore.FILE_NAME);
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
		assertThat(Files.readString(file)).doesNotContain("open sesame").contains(share.passwordHash());
	}

	@Test
	void aLineThatIsNoShareIsSkipped() throws Exception {
		Share share = share("alice", 0);
		Files.writeString(this.state.resolve(FileShareStore.FILE_NAME), "# comment\nnot a share\n"
				+ ShareLines.format(share).replace("\tread\t", "\tall\t") + "\n" + ShareLines.format(share) + "\n");
		FileShareStore store = store();
		assertThat(store.find(share.id()).block(TIMEOUT)).isEqualTo(share);
		assertThat(store.list("alice").collectList().block(TIMEOUT)).containsExactly(share);
	}

}
