-- Revokes a user's share (RedisShareStore.remove). KEYS[1] the share, KEYS[2] the user's index. ARGV[1] the
-- share's id. Returns 1 if the user had it, else 0.
if redis.call('SREM', KEYS[2], ARGV[1]) == 0 then
	return 0
end
redis.call('DEL', KEYS[1])
return 1
