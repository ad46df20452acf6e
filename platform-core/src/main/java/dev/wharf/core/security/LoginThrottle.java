package dev.wharf.core.security;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Slows down password guessing, shared by every protocol. Failures are counted in three
 * buckets ({@link Bucket}): per account and client address together (a few free tries),
 * per client address (one host trying many accounts) and per account (many hosts trying
 * one account); past a bucket's free tries each further failure locks it for twice as
 * long as the last, from {@link #FIRST_LOCK} up to {@link #MAX_LOCK}. A bucket is
 * forgotten after {@link #FORGET_AFTER} without failures. Nothing sleeps: callers refuse
 * a locked login at once and tell the client when to retry.
 *
 * <p>
 * Kept in this process ({@link InMemoryLoginThrottle}, one replica) or shared by every
 * replica (Redis), so that N replicas do not give a guesser N times the tries.
 *
 * <p>
 * <b>Threading.</b> Every method returns at once and never blocks the caller (often a
 * Netty event loop). Implementations are thread-safe. <b>Nulls.</b> Only {@code address}
 * may be {@code null} (unknown); then only the account's bucket counts. A shared
 * implementation fails its {@code Mono}s with
 * {@link dev.wharf.core.state.SharedStateUnavailableException} when its store cannot be
 * reached.
 */
public interface LoginThrottle {

	/** Free failures for one account from one address. */
	int FREE_PER_ACCOUNT_AND_ADDRESS = 5;

	/** Free failures from one address across accounts. */
	int FREE_PER_ADDRESS = 20;

	/** Free failures for one account across addresses. */
	int FREE_PER_ACCOUNT = 50;

	/** The first lock. */
	Duration FIRST_LOCK = Duration.ofSeconds(1);

	/** The longest lock. */
	Duration MAX_LOCK = Duration.ofMinutes(15);

	/** A bucket without failures for this long starts over. */
	Duration FORGET_AFTER = Duration.ofMinutes(30);

	/**
	 * How long a login must wait.
	 * @param account the account name given
	 * @param address the client's address, or {@code null} if unknown
	 * @return the wait, or {@link Duration#ZERO} if a login may be tried now
	 */
	Mono<Duration> retryAfter(String account, @Nullable String address);

	/**
	 * How long a login must wait, answered at once where the throttle has the answer at
	 * hand (it keeps its buckets in this process): for callers on a hot path that would
	 * otherwise go through {@link #retryAfter}'s publisher. Runs on the caller's thread
	 * without blocking and never throws.
	 * @param account the account name given
	 * @param address the client's address, or {@code null} if unknown
	 * @return what {@link #retryAfter} would give; {@code null} (the default) if the
	 * answer is not at hand, and then the caller asks {@link #retryAfter}
	 */
	default @Nullable Duration retryAfterAtHand(String account, @Nullable String address) {
		return null;
	}

	/**
	 * Counts a failed login.
	 * @param account the account name given
	 * @param address the client's address, or {@code null}
	 * @return completes once counted
	 */
	Mono<Void> failed(String account, @Nullable String address);

	/**
	 * Clears the account's buckets after a successful login; the address's own bucket
	 * stays, so a host that guessed many accounts is still slowed down.
	 * @param account the account
	 * @param address the client's address, or {@code null}
	 * @return completes once cleared
	 */
	Mono<Void> succeeded(String account, @Nullable String address);

	/**
	 * How long a bucket locks after a failure past its free ones.
	 * @param excess how many failures past the free ones, at least 1
	 * @return {@link #FIRST_LOCK}, doubled for each further failure, at most
	 * {@link #MAX_LOCK}
	 */
	static Duration lock(int excess) {
		int doublings = Math.min(excess - 1, 20);
		Duration lock = FIRST_LOCK.multipliedBy(1L << doublings);
		return (lock.compareTo(MAX_LOCK) > 0) ? MAX_LOCK : lock;
	}

	/** The buckets failures are counted in. */
	enum Bucket {

		/** One account from one address. */
		ACCOUNT_AND_ADDRESS(FREE_PER_ACCOUNT_AND_ADDRESS),

		/** One address, every account. */
		ADDRESS(FREE_PER_ADDRESS),

		/** One account, every address. */
		ACCOUNT(FREE_PER_ACCOUNT);

		private final int free;

		Bucket(int free) {
			this.free = free;
		}

		/** Failures this bucket allows before it locks. */
		public int free() {
			return this.free;
		}

		/**
		 * The buckets a login counts in.
		 * @param address the client's address, or {@code null}
		 * @return all three, or only {@link #ACCOUNT} without an address
		 */
		public static List<Bucket> of(@Nullable String address) {
			return (address != null) ? List.of(values()) : List.of(ACCOUNT);
		}

		/**
		 * The bucket's name for an account and address, unique across buckets.
		 * @param account the account name given
		 * @param address the client's address ({@code null} only for {@link #ACCOUNT})
		 * @return the name
		 */
		public String key(String account, @Nullable String address) {
			return switch (this) {
				case ACCOUNT_AND_ADDRESS -> "pair\0" + account + '\0' + address;
				case ADDRESS -> "address\0" + address;
				case ACCOUNT -> "account\0" + account;
			};
		}

	}

}
