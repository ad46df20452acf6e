-- Stores a new session and ends its user's oldest past the cap (RedisSessionStore.create).
-- KEYS[1] the user's index (sorted set of session keys by creation time), KEYS[2] the new session.
-- ARGV[1] the prefix of session keys, ARGV[2] the new session's key (digest), ARGV[3] its value, ARGV[4] its
-- time to live (ms), ARGV[5] the most sessions the user may have, ARGV[6] its creation time (ms), ARGV[7] the
-- invalidation channel. Index entries whose session is gone (expired) are dropped first. Publishes and returns
-- the keys of the sessions it ended.
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local live = {}
for _, member in ipairs(members) do
	if redis.call('EXISTS', ARGV[1] .. member) == 1 then
		live[#live + 1] = member
	else
		redis.call('ZREM', KEYS[1], member)
	end
end
local ended = {}
for i = 1, #live + 1 - tonumber(ARGV[5]) do
	redis.call('DEL', ARGV[1] .. live[i])
	redis.call('ZREM', KEYS[1], live[i])
	ended[#ended + 1] = live[i]
end
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[6], ARGV[2])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then
	redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
if #ended > 0 then
	redis.call('PUBLISH', ARGV[7], 'session ' .. table.concat(ended, ' '))
end
return ended
