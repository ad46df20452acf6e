-- Forgets an entry that is gone (RedisCacheIndex.forget). KEYS as in index-record.lua; ARGV[1] the entry.
-- Returns 1 if it was known.
local weight = redis.call('HGET', KEYS[2], ARGV[1])
if not weight then
	return 0
end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DECRBY', KEYS[3], weight)
return 1
