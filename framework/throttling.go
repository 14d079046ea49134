package framework

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Throttle decides whether a request is within its rate (allow_request);
// when not, wait is how long until it would be (DRF's wait(), 0 if unknown).
type Throttle interface {
	Allow(r *request.Request, v *View) (allowed bool, wait time.Duration, err error)
}

// checkThrottles runs every throttle and raises Throttled with the longest wait.
func (v *View) checkThrottles(r *request.Request) error {
	denied := false
	var longest time.Duration
	for _, t := range v.Throttles.items {
		ok, wait, err := t.Allow(r, v)
		if err != nil {
			return err
		}
		if !ok {
			denied = true
			longest = max(longest, wait)
		}
	}
	if denied {
		return exceptions.Throttled(longest)
	}
	return nil
}

// ThrottleCache stores request histories. Update atomically replaces the
// history under key with fn's result and keeps it for ttl.
type ThrottleCache interface {
	Update(key string, ttl time.Duration, fn func(history []time.Time) []time.Time)
}

// MemoryCache is an in-process ThrottleCache; its zero value is ready.
type MemoryCache struct {
	mu      sync.Mutex
	entries map[string]cacheEntry
	sweep   time.Time
}

type cacheEntry struct {
	history []time.Time
	expires time.Time
}

// Update implements ThrottleCache.
func (c *MemoryCache) Update(key string, ttl time.Duration, fn func([]time.Time) []time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if c.entries == nil {
		c.entries = map[string]cacheEntry{}
	}
	if now.After(c.sweep) {
		for k, e := range c.entries {
			if now.After(e.expires) {
				delete(c.entries, k)
			}
		}
		c.sweep = now.Add(time.Minute)
	}
	e := c.entries[key]
	if now.After(e.expires) {
		e.history = nil
	}
	c.entries[key] = cacheEntry{history: fn(e.history), expires: now.Add(ttl)}
}

var defaultCache = &MemoryCache{}

// ParseRate reads DRF's rate notation, "3/minute" (s, m, h, d by first letter).
func ParseRate(rate string) (n int, per time.Duration, err error) {
	num, period, ok := strings.Cut(rate, "/")
	n, convErr := strconv.Atoi(num)
	if !ok || convErr != nil || n < 0 || period == "" {
		return 0, 0, fmt.Errorf("invalid throttle rate %q", rate)
	}
	switch period[0] {
	case 's':
		per = time.Second
	case 'm':
		per = time.Minute
	case 'h':
		per = time.Hour
	case 'd':
		per = 24 * time.Hour
	default:
		return 0, 0, fmt.Errorf("invalid throttle rate %q", rate)
	}
	return n, per, nil
}

// RateThrottle is DRF's SimpleRateThrottle: Key names the client (""
// means "do not throttle"), Scope picks the rate from ThrottleRates unless
// Rate is set. The built-in throttles are RateThrottles with their keys.
type RateThrottle struct {
	Scope string
	Rate  string
	Key   func(r *request.Request, v *View) string
	// Now is the clock; nil gives time.Now.
	Now func() time.Time
}

// Allow implements Throttle with DRF's history algorithm.
func (t RateThrottle) Allow(r *request.Request, v *View) (bool, time.Duration, error) {
	s := v.Global()
	rate := t.Rate
	if rate == "" {
		var ok bool
		if rate, ok = s.ThrottleRates[t.Scope]; !ok {
			return false, 0, fmt.Errorf("no default throttle rate set for %q scope", t.Scope)
		}
	}
	limit, per, err := ParseRate(rate)
	if err != nil {
		return false, 0, err
	}
	key := t.Key(r, v)
	if key == "" {
		return true, 0, nil
	}
	now := time.Now()
	if t.Now != nil {
		now = t.Now()
	}
	cache := s.ThrottleCache
	if cache == nil {
		cache = defaultCache
	}
	allowed := false
	var wait time.Duration
	cache.Update("throttle_"+t.Scope+"_"+key, per, func(h []time.Time) []time.Time {
		for len(h) > 0 && !h[len(h)-1].After(now.Add(-per)) {
			h = h[:len(h)-1]
		}
		if len(h) < limit {
			allowed = true
			return append([]time.Time{now}, h...)
		}
		remaining := per
		if len(h) > 0 {
			remaining = per - now.Sub(h[len(h)-1])
		}
		if available := limit - len(h) + 1; available > 0 {
			wait = remaining / time.Duration(available)
		}
		return h
	})
	return allowed, wait, nil
}

// ClientIP identifies a client as DRF's get_ident does, trusting only the
// last NumProxies entries of X-Forwarded-For (none by default).
func ClientIP(r *request.Request, numProxies int) string {
	if xff := r.Header.Get("X-Forwarded-For"); numProxies > 0 && xff != "" {
		addrs := strings.Split(xff, ",")
		return strings.TrimSpace(addrs[len(addrs)-min(numProxies, len(addrs))])
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// AnonRateThrottle limits anonymous clients by IP, at the "anon" rate.
func AnonRateThrottle() RateThrottle {
	return RateThrottle{Scope: "anon", Key: func(r *request.Request, v *View) string {
		if r.User().IsAuthenticated() {
			return ""
		}
		return ClientIP(r, v.Global().NumProxies)
	}}
}

// UserRateThrottle limits users by username and anonymous clients by IP,
// at the "user" rate.
func UserRateThrottle() RateThrottle {
	return RateThrottle{Scope: "user", Key: userOrIP}
}

func userOrIP(r *request.Request, v *View) string {
	if u := r.User(); u.IsAuthenticated() {
		return "user:" + u.GetUsername()
	}
	return "ip:" + ClientIP(r, v.Global().NumProxies)
}

// ScopedRateThrottle limits by the view's ThrottleScope, at that scope's
// rate; views without a scope are not throttled.
type ScopedRateThrottle struct{}

// Allow implements Throttle.
func (ScopedRateThrottle) Allow(r *request.Request, v *View) (bool, time.Duration, error) {
	if v.ThrottleScope == "" {
		return true, 0, nil
	}
	return RateThrottle{Scope: v.ThrottleScope, Key: userOrIP}.Allow(r, v)
}
