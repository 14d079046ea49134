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
func (c *Memory) Hit(_ context.Context, key string, now time.Time, window time.Duration, limit int) (framework.ThrottleWindow, error) {
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
	for len(h) > 0 && !h[len(h)-1].After(now.Add(-window)) {
		h = h[:len(h)-1]
	}
	w := framework.ThrottleWindow{Count: len(h)}
	if len(h) > 0 {
		w.Oldest = h[len(h)-1]
	}
	if len(h) < limit {
		w.Allowed = true
		h = append([]time.Time{now}, h...)
		e.expires = clock.Add(window)
	}
	c.entries[key] = entry{history: h, expires: e.expires}
	return w, nil
}
