// Package cache is the state that every instance of a service must share,
// as DRF keeps it in Django's cache: the request histories of the rate
// throttles (a framework.ThrottleCache). Memory keeps it in the process, which is right for one
// instance; Redis keeps it in a Redis server that all instances use, so
// that N instances allow a rate once, not N times. Open picks one from a
// CACHE_URL.
package cache

import (
	"fmt"
	"strings"

	"github.com/go-drf/drf/framework"
)

// Open returns the cache a CACHE_URL names: "" or "memory://" for a new
// Memory, "redis://[:password@]host:port/db" (or "rediss://" with TLS,
// "unix:///path/redis.sock") for Redis (see OpenRedis). Other schemes are
// an error that names the supported ones.
func Open(url string) (framework.ThrottleCache, error) {
	scheme, _, _ := strings.Cut(url, "://")
	switch strings.ToLower(scheme) {
	case "", "memory":
		return &Memory{}, nil
	case "redis", "rediss", "unix":
		return OpenRedis(url)
	}
	return nil, fmt.Errorf("cache: unsupported CACHE_URL scheme %q: use memory://, redis://, rediss:// or unix://", scheme)
}
