package dev.wharf.core.security;

import dev.wharf.core.testsupport.MutableClock;

/**
 * The throttle's rules in this process: both "replicas" are the same throttle, as on one
 * node.
 */
class InMemoryLoginThrottleContractTests extends AbstractLoginThrottleContractTests {

	private InMemoryLoginThrottle throttle;

	@Override
	protected LoginThrottle throttle(MutableClock clock) {
		if (this.throttle == null) {
			this.throttle = new InMemoryLoginThrottle(clock);
		}
		return this.throttle;
	}

}
