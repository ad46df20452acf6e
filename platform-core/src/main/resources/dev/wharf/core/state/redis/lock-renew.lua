-- Extends a lock by its time to live if it is still held by the caller.
-- KEYS[1] the lock; ARGV[1] the holder's value, ARGV[2] the time to live in milliseconds.
-- Returns 1 if renewed, 0 if the lock ran out or belongs to someone else.
if redis.call('GET', KEYS[1]) == ARGV[1] then
	redis.call('PEXPIRE', KEYS[1], ARGV[2])
	return 1
end
return 0
