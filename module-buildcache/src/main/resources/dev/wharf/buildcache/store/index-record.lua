-- Records a written entry (RedisCacheIndex.record). KEYS[1] the entries by last use (sorted set), KEYS[2]
-- their weights (hash: content size plus the charge per entry), KEYS[3] the total weight. ARGV[1] the entry,
-- ARGV[2] its weight, ARGV[3] now (epoch ms). Returns the new total.
local old = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return redis.call('INCRBY', KEYS[3], string.format('%.0f', tonumber(ARGV[2]) - old))
