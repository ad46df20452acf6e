-- Ends one session (RedisSessionStore.delete). KEYS[1] the session. ARGV[1] the prefix of user indexes,
-- ARGV[2] the session's key (digest), ARGV[3] the invalidation channel. The user's name is the last field of
-- the value. Returns 1 if it existed.
local value = redis.call('GET', KEYS[1])
if not value then
	return 0
end
local user = string.match(value, '^[^\t]*\t[^\t]*\t[^\t]*\t(.*)$')
redis.call('DEL', KEYS[1])
if user then
	redis.call('ZREM', ARGV[1] .. user, ARGV[2])
end
redis.call('PUBLISH', ARGV[3], 'session ' .. ARGV[2])
return 1
