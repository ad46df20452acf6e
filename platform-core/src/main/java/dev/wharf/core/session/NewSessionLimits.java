package dev.wharf.core.session;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * How fast sessions start, per user and per client address
 * ({@link SessionProperties.NewSessions}): one token bucket each, kept as the time at
 * which the bucket will be full again (the generic cell rate algorithm), so a bucket is
 * one number. Nothing sleeps: a start past a limit is refused at once with the time to
 * wait. In this process ({@link InMemoryNewSessionLimits}) or shared by every replica
 * (Redis), so that N replicas do not allow N times the starts.
 *
 * <p>
 * <b>Threading.</b> {@link #tryStart} returns at once and never blocks the caller (often
 * a Netty event loop). Implementations are thread-safe. <b>Nulls.</b> Only
 * {@code address} may be {@code null}.
 */
public interface NewSessionLimits {

	/**
	 * Takes one start from the user's bucket and the address's, or from neither.
	 * @param user the user's name
	 * @param address the client's address, or {@code null} if unknown (then only the
	 * user's bucket counts)
	 * @return completes if the session may start; fails with
	 * {@link SessionLimitException} (a rate limit, and how long to wait) if not, and with
	 * {@link dev.wharf.core.state.SharedStateUnavailableException} if a shared store
	 * cannot be reached
	 */
	Mono<Void> tryStart(String user, @Nullable String address);

}
