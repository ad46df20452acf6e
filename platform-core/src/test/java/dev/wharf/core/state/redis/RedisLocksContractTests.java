package dev.wharf.core.state.redis;

import dev.wharf.core.state.AbstractLocksContractTests;
import dev.wharf.core.state.Locks;
import dev.wharf.core.testsupport.RedisClients;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The locks contract on a real Redis, each "replica" with a client of its own.
 */
class RedisLocksContractTests extends AbstractLocksContractTests {

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	private RedisClients clients;

	@BeforeEach
	void connect() throws Exception {
		redis.server().flushAll();
		this.clients = new RedisClients(redis.server());
	}

	@AfterEach
	void disconnect() {
		this.clients.close();
	}

	@Override
	protected Locks locks() {
		return new RedisLocks(this.clients.state("wharf:"));
	}

}
