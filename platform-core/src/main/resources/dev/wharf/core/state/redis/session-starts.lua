-- Takes one session start from the user's bucket and, if given, the address's, or from neither
-- (RedisNewSessionLimits; the generic cell rate algorithm of InMemoryNewSessionLimits).
-- KEYS[1] the user's bucket, KEYS[2] the address's (optional). Each holds the time (epoch ms) at which it is
-- full again. ARGV[1] now (ms), ARGV[2]/ARGV[3] the user's interval and tolerance, ARGV[4]/ARGV[5] the
-- address's (an interval of 0: no limit), ARGV[6] the period (ms), after which an unused bucket is full.
-- Returns {0, 0} if the start is taken, {1, wait} if the user's bucket refuses, {2, wait} if the address's.
local now = tonumber(ARGV[1])
local function take(key, interval, tolerance)
	if interval <= 0 then
		return 0, nil
	end
	local at = tonumber(redis.call('GET', key) or now)
	if at < now then
		at = now
	end
	if at - now > tolerance then
		return at - now - tolerance, nil
	end
	return 0, at + interval
end
local userWait, userAt = take(KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3]))
if userWait > 0 then
	return { 1, userWait }
end
if #KEYS > 1 then
	local addressWait, addressAt = take(KEYS[2], tonumber(ARGV[4]), tonumber(ARGV[5]))
	if addressWait > 0 then
		return { 2, addressWait }
	end
	if addressAt then
		redis.call('SET', KEYS[2], string.format('%.0f', addressAt), 'PX', ARGV[6])
	end
end
if userAt then
	redis.call('SET', KEYS[1], string.format('%.0f', userAt), 'PX', ARGV[6])
end
return { 0, 0 }
