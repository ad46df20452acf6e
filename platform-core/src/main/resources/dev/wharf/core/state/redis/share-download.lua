-- Counts a download of a share if its limit allows (RedisShareStore.countDownload). KEYS[1] the share.
-- Returns 1 if counted, 0 if the downloads are used up or the share is gone.
local fields = redis.call('HMGET', KEYS[1], 'line', 'max', 'downloads')
if not fields[1] then
	return 0
end
local max = tonumber(fields[2]) or 0
local downloads = tonumber(fields[3]) or 0
if max > 0 and downloads >= max then
	return 0
end
redis.call('HINCRBY', KEYS[1], 'downloads', 1)
return 1
