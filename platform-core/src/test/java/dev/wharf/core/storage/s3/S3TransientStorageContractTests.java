package dev.wharf.core.storage.s3;

/**
 * The storage contract against S3Proxy keeping objects in memory.
 */
class S3TransientStorageContractTests extends AbstractS3ProxyStorageContractTests {

	@Override
	protected S3ProxyProcess.Backend backend() {
		return S3ProxyProcess.Backend.TRANSIENT;
	}

}
