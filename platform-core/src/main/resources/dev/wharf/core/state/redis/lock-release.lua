-- Releases a lock if it is still held by the caller.
-- KEYS[1] the lock; ARGV[1] the holder's value. Returns 1 if released, 0 otherwise.
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('DEL', KEYS[1])
end
return 0
