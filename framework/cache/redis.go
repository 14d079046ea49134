package cache

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/redis/go-redis/v9"
)

// Timeouts of a Redis cache whose URL sets none: short, because a request
// waits for them and a throttle fails open when they pass.
const (
	RedisDialTimeout = 500 * time.Millisecond
	redisIOTimeout   = 500 * time.Millisecond
)

// RedisCoolDown is how long a Redis cache that could not reach its server
// answers ErrUnavailable at once, without trying the server again; then
// one Hit tries it, and either the cache works again or another cool-down
// begins.
const RedisCoolDown = time.Second

// ErrUnavailable is Hit's error during a cool-down (see RedisCoolDown).
var ErrUnavailable = errors.New("cache: redis unreachable, not tried again during the cool-down")

// Redis is a framework.ThrottleCache in a Redis server, shared by every instance that uses
// the same server and database. Each Hit or HitLimits is one Lua script,
// so concurrent requests on any number of instances update a history
// atomically.
//
// A Redis that cannot be reached (refused, timed out, cut off) costs one
// attempt, not one per request: after such a failure Hit answers
// ErrUnavailable without trying the server for RedisCoolDown, a circuit
// breaker. An error the server answers (out of memory, loading, a
// read-only replica) comes as fast as any answer and does not trip it.
type Redis struct {
	client *redis.Client
	// coolUntil is the end of the cool-down, on monotonicClock; 0 while
	// the server answers.
	coolUntil atomic.Int64
}

// OpenRedis connects to the Redis server of url, go-redis's URL form
// ("redis://user:password@host:6379/0?dial_timeout=1s&max_retries=2").
// Unless the URL says otherwise, dialing and each read or write time out
// after RedisDialTimeout and 500ms, and a failed command is not
// retried; a dial is always one attempt (go-redis's default is five, 100
// ms apart). It does not contact the server: a server that is down is seen
// by Hit.
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
		opts.ReadTimeout = redisIOTimeout
	}
	if !q.Has("write_timeout") {
		opts.WriteTimeout = redisIOTimeout
	}
	if !q.Has("max_retries") {
		opts.MaxRetries = -1 // go-redis's spelling of none
	}
	opts.DialerRetries = 1
	return &Redis{client: redis.NewClient(opts)}, nil
}

// Close closes the connections to the server.
func (c *Redis) Close() error { return c.client.Close() }

// Ping asks the server whether it answers, within ctx: what a readiness
// check asks (health.Mount). The circuit breaker does not
// hold it back.
func (c *Redis) Ping(ctx context.Context) error { return c.client.Ping(ctx).Err() }

// hitScript is HitLimits on a list of microsecond timestamps, newest
// first: ARGV holds now, then a window (microseconds) and a limit per
// limit; the reply is whether the request was recorded, then each
// window's count and oldest timestamp ("0" when empty).
var hitScript = redis.NewScript(`
local key = KEYS[1]
local now = tonumber(ARGV[1])
local longest = 0
for i = 2, #ARGV, 2 do
  longest = math.max(longest, tonumber(ARGV[i]))
end
while true do
  local last = redis.call('LINDEX', key, -1)
  if not last or tonumber(last) > now - longest then break end
  redis.call('RPOP', key)
end
local history = redis.call('LRANGE', key, 0, -1)
local reply = {1}
for i = 2, #ARGV, 2 do
  local window, limit = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local n, oldest = 0, '0'
  for _, t in ipairs(history) do
    if tonumber(t) <= now - window then break end
    n = n + 1
    oldest = t
  end
  if n >= limit then reply[1] = 0 end
  table.insert(reply, n)
  table.insert(reply, oldest)
end
if reply[1] == 1 then
  redis.call('LPUSH', key, ARGV[1])
  redis.call('PEXPIRE', key, math.ceil(longest / 1000))
end
return reply
`)

// Hit implements framework.ThrottleCache.
func (c *Redis) Hit(ctx context.Context, key string, now time.Time, window time.Duration, limit int) (framework.ThrottleWindow, error) {
	var w [1]framework.ThrottleWindow
	err := c.hit(ctx, key, now, []framework.ThrottleLimit{{Window: window, Limit: limit}}, w[:])
	return w[0], err
}

// HitLimits implements framework.ThrottleCache: one script, so the limits
// are checked and the request recorded atomically.
func (c *Redis) HitLimits(ctx context.Context, key string, now time.Time, limits []framework.ThrottleLimit) ([]framework.ThrottleWindow, error) {
	windows := make([]framework.ThrottleWindow, len(limits))
	if err := c.hit(ctx, key, now, limits, windows); err != nil {
		return nil, err
	}
	return windows, nil
}

// hit runs hitScript, filling windows.
func (c *Redis) hit(ctx context.Context, key string, now time.Time, limits []framework.ThrottleLimit, windows []framework.ThrottleWindow) error {
	if !c.try() {
		return ErrUnavailable
	}
	args := make([]any, 0, 1+2*len(limits))
	args = append(args, now.UnixMicro())
	for _, l := range limits {
		args = append(args, l.Window.Microseconds(), min(l.Limit, math.MaxInt32))
	}
	res, err := hitScript.Run(ctx, c.client, []string{key}, args...).Slice()
	var answered redis.Error
	switch {
	case err == nil || errors.As(err, &answered):
		if c.coolUntil.Load() != 0 {
			c.coolUntil.Store(0)
		}
	case ctx.Err() == nil: // a caller that went away says nothing of the server
		c.coolUntil.Store(monotonicClock() + int64(RedisCoolDown))
	}
	if err != nil {
		return fmt.Errorf("cache: redis: %w", err)
	}
	if len(res) != 1+2*len(limits) {
		return fmt.Errorf("cache: redis: unexpected reply %v", res)
	}
	allowed, _ := res[0].(int64)
	for i := range limits {
		count, _ := res[1+2*i].(int64)
		w := framework.ThrottleWindow{Allowed: allowed == 1, Count: int(count)}
		if s, _ := res[2+2*i].(string); s != "0" {
			oldest, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("cache: redis: bad timestamp %q under %q", s, key)
			}
			w.Oldest = time.UnixMicro(oldest)
		}
		windows[i] = w
	}
	return nil
}

// try reports whether Hit may send its script: always while the server
// answers; after a failure, not before the cool-down ends, and then only
// for one caller, whose attempt the others do not wait for (they find the
// cool-down extended until it ends).
func (c *Redis) try() bool {
	until := c.coolUntil.Load()
	if until == 0 {
		return true
	}
	now := monotonicClock()
	return now >= until && c.coolUntil.CompareAndSwap(until, now+int64(RedisCoolDown))
}

// clockStart anchors monotonicClock.
var clockStart = time.Now()

// monotonicClock is the time since the process started, in nanoseconds,
// on the monotonic clock: a step of the wall clock neither ends a
// cool-down nor prolongs it.
func monotonicClock() int64 { return int64(time.Since(clockStart)) }
