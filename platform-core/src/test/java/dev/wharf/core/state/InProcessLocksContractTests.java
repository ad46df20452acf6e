package dev.wharf.core.state;

/**
 * The locks contract in this process: both "replicas" are the same object, as on one
 * node.
 */
class InProcessLocksContractTests extends AbstractLocksContractTests {

	private final InProcessLocks locks = new InProcessLocks();

	@Override
	protected Locks locks() {
		return this.locks;
	}

}
