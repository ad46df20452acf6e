-- Counts a failed login in each of its buckets (RedisLoginThrottle), as InMemoryLoginThrottle does.
-- KEYS: the buckets. ARGV[1] now (epoch ms), ARGV[2] how long a bucket is remembered after its last failure,
-- ARGV[3] the first lock, ARGV[4] the longest lock (ms), ARGV[4 + i] the free failures of KEYS[i].
-- Each bucket is "count lockedUntil lastFailure"; past its free failures each failure locks it for twice as
-- long as the last.
local now = tonumber(ARGV[1])
local forget = tonumber(ARGV[2])
local first = tonumber(ARGV[3])
local longest = tonumber(ARGV[4])
for i, key in ipairs(KEYS) do
	local free = tonumber(ARGV[4 + i])
	local count = 0
	local locked = 0
	local value = redis.call('GET', key)
	if value then
		local c, l, last = string.match(value, '^(%d+) (%d+) (%d+)$')
		if c and now - tonumber(last) < forget then
			count = tonumber(c)
			locked = tonumber(l)
		end
	end
	count = count + 1
	if count > free then
		locked = now + math.min(first * 2 ^ math.min(count - free - 1, 20), longest)
	end
	redis.call('SET', key, string.format('%.0f %.0f %.0f', count, locked, now), 'PX', forget)
end
return 0
