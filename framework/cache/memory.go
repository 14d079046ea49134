package cache

import (
	"context"
	"sync"
	"time"

	"github.com/go-drf/drf/framework"
)

// Memory is a framework.ThrottleCache in the process's memory; its zero value is ready.
// Instances do not share it.
type Memory struct {
	mu      sync.Mutex
	entries map[string]entry
	sweep   time.Time
}

type entry struct {
	history []time.Time // newest first
	expires time.Time
}

// Hit implements framework.ThrottleCache.
func (c *Memory) Hit(ctx context.Context, key string, now time.Time, window time.Duration, limit int) (framework.ThrottleWindow, error) {
	var w [1]framework.ThrottleWindow
	c.hit(key, now, []framework.ThrottleLimit{{Window: window, Limit: limit}}, w[:])
	return w[0], nil
}

// HitLimits implements framework.ThrottleCache.
func (c *Memory) HitLimits(_ context.Context, key string, now time.Time, limits []framework.ThrottleLimit) ([]framework.ThrottleWindow, error) {
	windows := make([]framework.ThrottleWindow, len(limits))
	c.hit(key, now, limits, windows)
	return windows, nil
}

// hit is one atomic step on the history under key, filling windows.
func (c *Memory) hit(key string, now time.Time, limits []framework.ThrottleLimit, windows []framework.ThrottleWindow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	clock := time.Now()
	if c.entries == nil {
		c.entries = map[string]entry{}
	}
	if clock.After(c.sweep) {
		for k, e := range c.entries {
			if clock.After(e.expires) {
				delete(c.entries, k)
			}
		}
		c.sweep = clock.Add(time.Minute)
	}
	e := c.entries[key]
	h := e.history
	if clock.After(e.expires) {
		h = nil
	}
	longest := longestWindow(limits)
	for len(h) > 0 && !h[len(h)-1].After(now.Add(-longest)) {
		h = h[:len(h)-1]
	}
	allowed := true
	for i, l := range limits {
		w := framework.ThrottleWindow{}
		for _, t := range h {
			if !t.After(now.Add(-l.Window)) {
				break
			}
			w.Count++
			w.Oldest = t
		}
		if w.Count >= l.Limit {
			allowed = false
		}
		windows[i] = w
	}
	if allowed {
		h = append([]time.Time{now}, h...)
		e.expires = clock.Add(longest)
	}
	for i := range windows {
		windows[i].Allowed = allowed
	}
	c.entries[key] = entry{history: h, expires: e.expires}
}

// longestWindow is the longest of the limits' windows: how long a
// history is kept.
func longestWindow(limits []framework.ThrottleLimit) time.Duration {
	var longest time.Duration
	for _, l := range limits {
		longest = max(longest, l.Window)
	}
	return longest
}
