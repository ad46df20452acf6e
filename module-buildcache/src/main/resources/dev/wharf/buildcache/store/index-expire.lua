-- Takes entries unused since a time out of the index (RedisCacheIndex, under the eviction lock). KEYS as in
-- index-record.lua; ARGV[1] the time (epoch ms), ARGV[2] the most entries to take in this call. Returns them.
local idle = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local freed = 0
for _, entry in ipairs(idle) do
	freed = freed + tonumber(redis.call('HGET', KEYS[2], entry) or '0')
	redis.call('HDEL', KEYS[2], entry)
	redis.call('ZREM', KEYS[1], entry)
end
if freed > 0 then
	redis.call('DECRBY', KEYS[3], string.format('%.0f', freed))
end
return idle
