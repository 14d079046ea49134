package scaleout_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/internal/testservers"
)

// TestRedisOutage: two instances whose Redis stops answer the throttled
// view at once, as if it had no throttle (fail open): no request waits
// for Redis's timeouts (each answers in under half RedisDialTimeout over
// HTTP, a bound no loaded machine reaches for a request that does not
// wait); when Redis is back they count together again, with no restart
// of either.
func TestRedisOutage(t *testing.T) {
	redis := testservers.StartRedis(t)
	d := &deployment{database: testservers.Postgres(t), cache: redis.URL}
	a, b := d.startTwo(t)
	post := func(in *instance) (int, time.Duration) {
		t.Helper()
		start := time.Now()
		r := in.send(t, "POST", "/api-token-auth-throttled/", `{}`)
		return r.status, time.Since(start)
	}
	statuses := make([]int, 4)
	for i := range statuses {
		statuses[i], _ = post([]*instance{a, b}[i%2])
	}
	if want := []int{400, 400, 400, 429}; !slices.Equal(statuses, want) {
		t.Fatalf("with Redis up: %v, want 3 through (400) and the 4th 429", statuses)
	}

	redis.Stop()
	const bound = cache.RedisDialTimeout / 2
	var slowest time.Duration
	for i := range 20 {
		status, took := post([]*instance{a, b}[i%2])
		if status != http.StatusBadRequest {
			t.Fatalf("Redis down, call %d: %d, want the view's 400 (fail open)", i+1, status)
		}
		if took > bound {
			t.Errorf("Redis down, call %d took %v, want under %v", i+1, took, bound)
		}
		slowest = max(slowest, took)
	}
	t.Logf("Redis down: the slowest of 20 calls took %v", slowest)

	redis.Restart(t)
	deadline := time.Now().Add(cache.RedisCoolDown + 5*time.Second)
	for _, in := range []*instance{a, b, a} {
		for {
			status, _ := post(in)
			if status == http.StatusTooManyRequests {
				break
			}
			if status != http.StatusBadRequest {
				t.Fatalf("Redis restarting: %d, want the view's 400 or 429", status)
			}
			if time.Now().After(deadline) {
				t.Fatalf("Redis back for %v: %s still not throttled", cache.RedisCoolDown+5*time.Second, in.base)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
