package cache

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Timeouts of a Redis cache whose URL sets none: short, because a request
// waits for them and a throttle fails open when they pass.
const (
	RedisDialTimeout = 500 * time.Millisecond
	RedisIOTimeout   = 500 * time.Millisecond
)

// Redis is a Cache in a Redis server, shared by every instance that uses
// the same server and database. Each Hit is one Lua script, so concurrent
// requests on any number of instances update a history atomically.
type Redis struct {
	client *redis.Client
}

// OpenRedis connects to the Redis server of url, go-redis's URL form
// ("redis://user:password@host:6379/0?dial_timeout=1s&max_retries=2").
// Unless the URL says otherwise, dialing and each read or write time out
// after RedisDialTimeout and RedisIOTimeout, and a failed command is
// retried once. It does not contact the server: a server that is down is
// seen by Hit.
func OpenRedis(rawURL string) (*Redis, error) {
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("cache: bad Redis URL: %v", err)
	}
	q := url.Values{}
	if u, err := url.Parse(rawURL); err == nil {
		q = u.Query()
	}
	if !q.Has("dial_timeout") {
		opts.DialTimeout = RedisDialTimeout
	}
	if !q.Has("read_timeout") {
		opts.ReadTimeout = RedisIOTimeout
	}
	if !q.Has("write_timeout") {
		opts.WriteTimeout = RedisIOTimeout
	}
	if !q.Has("max_retries") {
		opts.MaxRetries = 1
	}
	return &Redis{client: redis.NewClient(opts)}, nil
}

// Close closes the connections to the server.
func (c *Redis) Close() error { return c.client.Close() }

// hitScript is Hit on a list of microsecond timestamps, newest first.
var hitScript = redis.NewScript(`
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
while true do
  local last = redis.call('LINDEX', key, -1)
  if not last or tonumber(last) > now - window then break end
  redis.call('RPOP', key)
end
local n = redis.call('LLEN', key)
local oldest = redis.call('LINDEX', key, -1) or '0'
if n < limit then
  redis.call('LPUSH', key, ARGV[1])
  redis.call('PEXPIRE', key, math.ceil(window / 1000))
  return {1, n, oldest}
end
return {0, n, oldest}
`)

// Hit implements Cache.
func (c *Redis) Hit(ctx context.Context, key string, now time.Time, window time.Duration, limit int) (Window, error) {
	us := now.UnixMicro()
	res, err := hitScript.Run(ctx, c.client, []string{key}, us, window.Microseconds(), min(limit, math.MaxInt32)).Slice()
	if err != nil {
		return Window{}, fmt.Errorf("cache: redis: %w", err)
	}
	if len(res) != 3 {
		return Window{}, fmt.Errorf("cache: redis: unexpected reply %v", res)
	}
	allowed, _ := res[0].(int64)
	count, _ := res[1].(int64)
	w := Window{Allowed: allowed == 1, Count: int(count)}
	if s, _ := res[2].(string); s != "0" {
		oldest, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return Window{}, fmt.Errorf("cache: redis: bad timestamp %q under %q", s, key)
		}
		w.Oldest = time.UnixMicro(oldest)
	}
	return w, nil
}
