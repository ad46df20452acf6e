package dev.wharf.buildcache.store;

/**
 * The index contract in this process, with its journal.
 */
class LocalCacheIndexContractTests extends AbstractCacheIndexContractTests {

	@Override
	protected CacheIndex.Factory indexes() {
		return LocalCacheIndex::new;
	}

	@Override
	protected void usesWritten(CacheStore store) {
		// Uses count at once in this process.
	}

	@Override
	protected void started(CacheStore store) {
		// Not waited for on purpose: the folder's scan may end after a test's first
		// writes and deletions, which the index must survive (entries removed before
		// the scan's result arrives stay removed). The tests that restart wait for the
		// entries themselves.
	}

}
