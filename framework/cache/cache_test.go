package cache_test

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// caches runs fn on a Memory and on two Redis clients of one server (two
// instances of a service), as subtests.
func caches(t *testing.T, fn func(t *testing.T, a, b framework.ThrottleCache)) {
	t.Run("memory", func(t *testing.T) {
		m := &cache.Memory{}
		fn(t, m, m)
	})
	t.Run("redis", func(t *testing.T) {
		srv := testservers.StartRedis(t)
		open := func() framework.ThrottleCache {
			c, err := cache.Open(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.(*cache.Redis).Close() })
			return c
		}
		fn(t, open(), open())
	})
}

// TestHitIsDRFsHistory: limit requests pass in a window, the next is
// refused with the count and the oldest request, and the window slides.
func TestHitIsDRFsHistory(t *testing.T) {
	caches(t, func(t *testing.T, a, b framework.ThrottleCache) {
		ctx := context.Background()
		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		for i, c := range []framework.ThrottleCache{a, b, a} {
			w, err := c.Hit(ctx, "k", t0.Add(time.Duration(i)*time.Second), time.Minute, 3)
			if err != nil || !w.Allowed || w.Count != i {
				t.Fatalf("request %d: %+v %v", i+1, w, err)
			}
		}
		w, err := b.Hit(ctx, "k", t0.Add(10*time.Second), time.Minute, 3)
		if err != nil || w.Allowed || w.Count != 3 || !w.Oldest.Equal(t0) {
			t.Fatalf("fourth request: %+v %v; want refused, 3 before, oldest %v", w, err, t0)
		}
		// At t0+60s the first request leaves the window.
		w, err = a.Hit(ctx, "k", t0.Add(time.Minute), time.Minute, 3)
		if err != nil || !w.Allowed || w.Count != 2 || !w.Oldest.Equal(t0.Add(time.Second)) {
			t.Fatalf("after the window slid: %+v %v", w, err)
		}
		if w, err := a.Hit(ctx, "other", t0, time.Minute, 0); err != nil || w.Allowed {
			t.Errorf("a zero limit allowed: %+v %v", w, err)
		}
	})
}

// TestHitIsAtomic: many concurrent requests through both instances pass
// exactly limit times.
func TestHitIsAtomic(t *testing.T) {
	caches(t, func(t *testing.T, a, b framework.ThrottleCache) {
		const limit, requests = 25, 200
		var allowed atomic.Int64
		var wg sync.WaitGroup
		now := time.Now()
		for i := range requests {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := a
				if i%2 == 1 {
					c = b
				}
				w, err := c.Hit(context.Background(), "race", now, time.Hour, limit)
				if err != nil {
					t.Error(err)
				}
				if w.Allowed {
					allowed.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := allowed.Load(); n != limit {
			t.Errorf("%d of %d requests allowed, want exactly %d", n, requests, limit)
		}
	})
}

// TestRedisKeepsHistoriesForTheirWindow: a key expires with its window.
func TestRedisKeepsHistoriesForTheirWindow(t *testing.T) {
	srv := testservers.StartRedis(t)
	c, err := cache.OpenRedis(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Hit(ctx, "short", time.Now(), 300*time.Millisecond, 1); err != nil {
		t.Fatal(err)
	}
	if w, _ := c.Hit(ctx, "short", time.Now(), 300*time.Millisecond, 1); w.Allowed {
		t.Fatal("second request within the window allowed")
	}
	time.Sleep(400 * time.Millisecond)
	if w, err := c.Hit(ctx, "short", time.Now(), 300*time.Millisecond, 1); err != nil || !w.Allowed || w.Count != 0 {
		t.Errorf("after the window: %+v %v", w, err)
	}
}

// TestRedisDownFailsFast: a Redis that went down costs the Hit that finds
// it gone one quick attempt (connection refused), and the Hits of the next
// RedisCoolDown none: they fail at once with ErrUnavailable. Then one Hit
// tries the server again, and once it is back Hit works, with no new
// client.
func TestRedisDownFailsFast(t *testing.T) {
	srv := testservers.StartRedis(t)
	c, err := cache.OpenRedis(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	start := time.Now()
	if _, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); err == nil || errors.Is(err, cache.ErrUnavailable) {
		t.Fatalf("the first Hit with Redis down: %v, want the connection's error", err)
	}
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("the Hit that found Redis down took %v: more than one quick attempt", d)
	}
	for range 100 {
		if _, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); !errors.Is(err, cache.ErrUnavailable) {
			t.Fatalf("a Hit during the cool-down: %v, want ErrUnavailable", err)
		}
	}
	time.Sleep(cache.RedisCoolDown)
	if _, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); err == nil || errors.Is(err, cache.ErrUnavailable) {
		t.Fatalf("the first Hit after the cool-down: %v, want another attempt", err)
	}
	srv.Restart(t)
	time.Sleep(cache.RedisCoolDown)
	if w, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); err != nil || !w.Allowed || w.Count != 0 {
		t.Fatalf("the first Hit after the restart and a cool-down: %+v %v", w, err)
	}
	if _, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); err != nil {
		t.Fatalf("the next one: %v", err)
	}
}

// TestRedisRestartBetweenHits: a server restarted between two Hits costs
// nothing: the pooled connection it closed is not used, and the second
// Hit is counted.
func TestRedisRestartBetweenHits(t *testing.T) {
	srv := testservers.StartRedis(t)
	c, err := cache.OpenRedis(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for round := range 3 {
		if w, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); err != nil || w.Count != 0 {
			t.Fatalf("round %d: %+v %v", round, w, err)
		}
		srv.Restart(t)
	}
}

// TestRedisErrorAnswersDoNotCoolDown: an error the server answers (here a
// key holding another type) is that Hit's error alone; the server is
// tried for the next one.
func TestRedisErrorAnswersDoNotCoolDown(t *testing.T) {
	srv := testservers.StartRedis(t)
	c, err := cache.OpenRedis(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	conn, err := net.Dial("tcp", srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("SET not-a-list x\r\n")); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(conn).ReadString('\n'); err != nil || line != "+OK\r\n" {
		t.Fatalf("SET: %q %v", line, err)
	}
	ctx := context.Background()
	if _, err := c.Hit(ctx, "not-a-list", time.Now(), time.Minute, 5); err == nil || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Fatalf("Hit on a string: %v, want WRONGTYPE", err)
	}
	if _, err := c.Hit(ctx, "k", time.Now(), time.Minute, 5); err != nil {
		t.Errorf("the next Hit: %v", err)
	}
}

func TestOpen(t *testing.T) {
	for _, url := range []string{"", "memory://"} {
		if c, err := cache.Open(url); err != nil {
			t.Errorf("Open(%q): %v", url, err)
		} else if _, ok := c.(*cache.Memory); !ok {
			t.Errorf("Open(%q) = %T", url, c)
		}
	}
	if c, err := cache.Open("redis://127.0.0.1:1/0"); err != nil {
		t.Errorf("Open(redis://): %v", err)
	} else if _, ok := c.(*cache.Redis); !ok {
		t.Errorf("Open(redis://) = %T", c)
	}
	for _, url := range []string{"memcached://127.0.0.1:11211", "redis://127.0.0.1:1/notanumber"} {
		if _, err := cache.Open(url); err == nil {
			t.Errorf("Open(%q) succeeded", url)
		} else if strings.HasPrefix(url, "memcached") && !strings.Contains(err.Error(), "redis://") {
			t.Errorf("Open(%q) = %q does not name the supported schemes", url, err)
		}
	}
}

// TestHitLimitsCountsAllOrNone: a burst (2 per 10 s) and a sustained rate
// (3 per minute) on one history: a request refused by one limit counts
// against none, and each window reports its own count and oldest.
func TestHitLimitsCountsAllOrNone(t *testing.T) {
	caches(t, func(t *testing.T, a, b framework.ThrottleCache) {
		ctx := context.Background()
		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		limits := []framework.ThrottleLimit{{Window: 10 * time.Second, Limit: 2}, {Window: time.Minute, Limit: 3}}
		hit := func(c framework.ThrottleCache, at time.Duration) []framework.ThrottleWindow {
			t.Helper()
			w, err := c.HitLimits(ctx, "multi", t0.Add(at), limits)
			if err != nil || len(w) != 2 {
				t.Fatalf("at %v: %+v %v", at, w, err)
			}
			return w
		}
		for i, at := range []time.Duration{0, time.Second} {
			if w := hit(a, at); !w[0].Allowed || w[0].Count != i || w[1].Count != i || !w[1].Allowed {
				t.Fatalf("request %d: %+v", i+1, w)
			}
		}
		// The burst is spent: refused, and not counted by the sustained rate.
		w := hit(b, 2*time.Second)
		if w[0].Allowed || w[1].Allowed || w[0].Count != 2 || !w[0].Oldest.Equal(t0) || w[1].Count != 2 {
			t.Fatalf("third request: %+v", w)
		}
		// At 10 s the first request leaves the burst window, not the minute.
		w = hit(a, 10*time.Second)
		if !w[0].Allowed || w[0].Count != 1 || !w[0].Oldest.Equal(t0.Add(time.Second)) || w[1].Count != 2 || !w[1].Oldest.Equal(t0) {
			t.Fatalf("after the burst window slid: %+v", w)
		}
		// The minute now holds 3: refused by the sustained rate alone.
		w = hit(b, 25*time.Second)
		if w[0].Allowed || w[0].Count != 0 || w[1].Count != 3 {
			t.Fatalf("over the sustained rate: %+v", w)
		}
		// Single-limit Hit reads the same history.
		if one, err := a.Hit(ctx, "multi", t0.Add(30*time.Second), time.Minute, 4); err != nil || !one.Allowed || one.Count != 3 {
			t.Fatalf("Hit on the history: %+v %v", one, err)
		}
	})
}

// TestHitLimitsIsAtomic: concurrent requests through both instances under
// two limits pass exactly the smaller limit's number of times.
func TestHitLimitsIsAtomic(t *testing.T) {
	caches(t, func(t *testing.T, a, b framework.ThrottleCache) {
		limits := []framework.ThrottleLimit{{Window: time.Minute, Limit: 15}, {Window: time.Hour, Limit: 40}}
		var allowed atomic.Int64
		var wg sync.WaitGroup
		now := time.Now()
		for i := range 150 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := a
				if i%2 == 1 {
					c = b
				}
				w, err := c.HitLimits(context.Background(), "race-limits", now, limits)
				if err != nil {
					t.Error(err)
					return
				}
				if w[0].Allowed {
					allowed.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := allowed.Load(); n != 15 {
			t.Errorf("%d requests allowed, want exactly 15", n)
		}
	})
}
