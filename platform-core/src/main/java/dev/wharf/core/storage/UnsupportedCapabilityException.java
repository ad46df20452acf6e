package dev.wharf.core.storage;

/**
 * The backend lacks the {@link Capability} an operation needs.
 */
public class UnsupportedCapabilityException extends StorageException {

	private static final long serialVersionUID = 1L;

	private final Capability capability;

	public UnsupportedCapabilityException(Capability capability, String mount) {
		super(StorageErrorKind.UNSUPPORTED, "Mount '" + mount + "' does not support " + capability.description(), null);
		this.capability = capability;
	}

	/** The missing capability. */
	public Capability capability() {
		return this.capability;
	}

}
