-- Stores an API token (RedisApiTokenStore.add). KEYS[1] the token (by digest), KEYS[2] its user's index (a
-- hash of token ids to digests). ARGV[1] the value, ARGV[2] its time to live (ms; 0: none), ARGV[3] the id,
-- ARGV[4] the digest.
if tonumber(ARGV[2]) > 0 then
	redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
	redis.call('SET', KEYS[1], ARGV[1])
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
return 1
