-- Records uses of entries the index knows (RedisCacheIndex, batched). KEYS[1] the entries by last use;
-- ARGV holds pairs: a time (epoch ms) and an entry. A use older than the one recorded changes nothing.
for i = 1, #ARGV, 2 do
	local known = redis.call('ZSCORE', KEYS[1], ARGV[i + 1])
	if known and tonumber(known) < tonumber(ARGV[i]) then
		redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1])
	end
end
return 0
