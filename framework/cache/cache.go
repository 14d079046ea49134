// Package cache is the state that every instance of a service must share,
// as DRF keeps it in Django's cache: the request histories of the rate
// throttles. Memory keeps it in the process, which is right for one
// instance; Redis keeps it in a Redis server that all instances use, so
// that N instances allow a rate once, not N times. Open picks one from a
// CACHE_URL.
package cache

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Cache keeps rate-limit histories.
type Cache interface {
	// Hit is one atomic step of DRF's throttle history algorithm on the
	// history under key: the requests recorded at or before now-window
	// are forgotten; when fewer than limit remain, a request at now is
	// recorded, the history is kept for window, and Allowed is true.
	Hit(ctx context.Context, key string, now time.Time, window time.Duration, limit int) (Window, error)
}

// Window is what Hit found in the window before the request.
type Window struct {
	// Allowed reports whether the request was recorded.
	Allowed bool
	// Count is the number of requests in the window before this one.
	Count int
	// Oldest is the earliest of them (zero when Count is 0).
	Oldest time.Time
}

// Open returns the cache a CACHE_URL names: "" or "memory://" for a new
// Memory, "redis://[:password@]host:port/db" (or "rediss://" with TLS,
// "unix:///path/redis.sock") for Redis (see OpenRedis). Other schemes are
// an error that names the supported ones.
func Open(url string) (Cache, error) {
	scheme, _, _ := strings.Cut(url, "://")
	switch strings.ToLower(scheme) {
	case "", "memory":
		return &Memory{}, nil
	case "redis", "rediss", "unix":
		return OpenRedis(url)
	}
	return nil, fmt.Errorf("cache: unsupported CACHE_URL scheme %q: use memory://, redis://, rediss:// or unix://", scheme)
}
