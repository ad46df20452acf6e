package dev.wharf.core.storage.s3;

/**
 * The storage contract against S3Proxy keeping objects as files, listed in pages of three
 * keys so that every listing and recursive operation follows continuation tokens.
 */
class S3FilesystemStorageContractTests extends AbstractS3ProxyStorageContractTests {

	@Override
	protected S3ProxyProcess.Backend backend() {
		return S3ProxyProcess.Backend.FILESYSTEM;
	}

	@Override
	protected int pageSize() {
		return 3;
	}

}
