-- Stores or changes a share (RedisShareStore.put); a change keeps the download count. KEYS[1] the share,
-- KEYS[2] its creator's index (a set of ids). ARGV[1] the share's line, ARGV[2] its maximum downloads, ARGV[3]
-- its id.
redis.call('HSET', KEYS[1], 'line', ARGV[1], 'max', ARGV[2])
redis.call('HSETNX', KEYS[1], 'downloads', '0')
redis.call('SADD', KEYS[2], ARGV[3])
return 1
