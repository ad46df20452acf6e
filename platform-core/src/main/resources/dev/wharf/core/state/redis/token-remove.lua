-- Revokes a user's API token (RedisApiTokenStore.remove). KEYS[1] the user's index. ARGV[1] the prefix of
-- token keys, ARGV[2] the token's id, ARGV[3] the invalidation channel. Returns the token's digest if the
-- user had it, else an empty string.
local digest = redis.call('HGET', KEYS[1], ARGV[2])
if not digest then
	return ''
end
redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('DEL', ARGV[1] .. digest)
redis.call('PUBLISH', ARGV[3], 'token ' .. digest)
return digest
