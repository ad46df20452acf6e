-- Adds entries found in the cache's folder that the index does not know (RedisCacheIndex, when it builds the
-- index). KEYS as in index-record.lua; ARGV holds triples: the entry, its weight, its last use (epoch ms).
-- Entries the index knows already keep what it knows. Returns the weight added.
local added = 0
for i = 1, #ARGV, 3 do
	if redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1]) == 1 then
		redis.call('ZADD', KEYS[1], ARGV[i + 2], ARGV[i])
		added = added + tonumber(ARGV[i + 1])
	end
end
if added > 0 then
	redis.call('INCRBY', KEYS[3], string.format('%.0f', added))
end
return added
