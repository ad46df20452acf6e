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

}
