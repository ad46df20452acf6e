-- Replaces a session that still exists, with a new time to live (RedisSessionStore.update); an ended
-- session stays ended. KEYS[1] the session, KEYS[2] its user's index. ARGV[1] the value, ARGV[2] the time
-- to live (ms). Returns 1 if replaced, 0 if the session was gone.
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'XX') then
	return 0
end
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
	redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1
