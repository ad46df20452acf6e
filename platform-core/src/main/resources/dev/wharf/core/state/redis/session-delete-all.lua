-- Ends every session of a user (RedisSessionStore.deleteAll). KEYS[1] the user's index. ARGV[1] the prefix
-- of session keys, ARGV[2] the invalidation channel. Publishes and returns the keys of the sessions it ended.
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local ended = {}
for _, member in ipairs(members) do
	if redis.call('DEL', ARGV[1] .. member) == 1 then
		ended[#ended + 1] = member
	end
end
redis.call('DEL', KEYS[1])
if #ended > 0 then
	redis.call('PUBLISH', ARGV[2], 'session ' .. table.concat(ended, ' '))
end
return ended
