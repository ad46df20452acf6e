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
		// A missing journal is read at once; the tests that restart wait for the entries
		// themselves.
	}

}
