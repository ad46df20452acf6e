package dev.wharf.buildcache.store;

import java.time.Duration;

/**
 * The index contract in this process, with its journal.
 */
class LocalCacheIndexContractTests extends AbstractCacheIndexContractTests {

	@Override
	protected CacheIndex.Factory indexes() {
		return LocalCacheIndex::new;
	}

	@Override
	protected Duration useDelay() {
		return Duration.ZERO;
	}

}
