-- Takes least recently used entries out of the index until the total is at most a target
-- (RedisCacheIndex, under the eviction lock). KEYS as in index-record.lua; ARGV[1] the target, ARGV[2] the
-- most entries to take in this call. The most recently used entry is never taken (the one just written, even
-- if it alone passes the budget). Returns the entries taken, for the caller to delete.
local total = tonumber(redis.call('GET', KEYS[3]) or '0')
local target = tonumber(ARGV[1])
if total <= target then
	return {}
end
local last = math.min(redis.call('ZCARD', KEYS[1]) - 2, tonumber(ARGV[2]) - 1)
if last < 0 then
	return {}
end
local victims = {}
for _, entry in ipairs(redis.call('ZRANGE', KEYS[1], 0, last)) do
	if total <= target then
		break
	end
	total = total - tonumber(redis.call('HGET', KEYS[2], entry) or '0')
	redis.call('HDEL', KEYS[2], entry)
	redis.call('ZREM', KEYS[1], entry)
	victims[#victims + 1] = entry
end
redis.call('SET', KEYS[3], string.format('%.0f', total))
return victims
