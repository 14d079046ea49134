package sample_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

// TestThrottledViewWhileRedisIsDown: while Redis refuses connections, the
// throttled obtain view answers every request at once, as if it had no
// throttle (the view's own 400 for an empty body), where each request
// waited for the client's dial retries (about 0.9 s); once Redis is back
// it throttles again, with no restart of the service.
func TestThrottledViewWhileRedisIsDown(t *testing.T) {
	srv := testservers.StartRedis(t)
	throttles, err := cache.OpenRedis(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer throttles.Close()
	c := serve(t, newDB(t), sample.ThrottleCache(throttles))
	post := func() (*apitest.Response, time.Duration) {
		start := time.Now()
		r := c.Post("/api-token-auth-throttled/", `{}`)
		return r, time.Since(start)
	}
	throttled := func(what string) {
		t.Helper()
		for i := range 3 {
			if r, _ := post(); r.Status != http.StatusBadRequest {
				t.Fatalf("%s: call %d: %d %s, want the view's 400", what, i+1, r.Status, r.Body)
			}
		}
		if r, _ := post(); r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "60" {
			t.Fatalf("%s: call 4: %d %s, want 429", what, r.Status, r.Body)
		}
	}
	throttled("with Redis up")

	srv.Stop()
	// The bound is some 50 times what an answer takes; the first request
	// finds Redis gone, the others are answered without trying it.
	const bound = 50 * time.Millisecond
	var first, slowest time.Duration
	for i := range 20 {
		r, took := post()
		if r.Status != http.StatusBadRequest {
			t.Fatalf("Redis down, call %d: %d %s, want the view's 400 (fail open)", i+1, r.Status, r.Body)
		}
		if took > bound {
			t.Errorf("Redis down, call %d took %v, want under %v", i+1, took, bound)
		}
		if i == 0 {
			first = took
		} else {
			slowest = max(slowest, took)
		}
	}
	t.Logf("Redis down: the first call took %v, the slowest of the next 19 %v", first, slowest)

	srv.Restart(t)
	// Within a cool-down the throttle tries Redis again; the restarted
	// server is empty, so the next requests are counted from zero.
	restarted := time.Now()
	deadline := restarted.Add(cache.RedisCoolDown + 5*time.Second)
	for {
		r, _ := post()
		if r.Status == http.StatusTooManyRequests {
			t.Logf("throttled again %v after the restart", time.Since(restarted))
			break
		}
		if r.Status != http.StatusBadRequest {
			t.Fatalf("Redis restarting: %d %s, want the view's 400 or 429", r.Status, r.Body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis back for %v: still not throttled (%d %s)", cache.RedisCoolDown+5*time.Second, r.Status, r.Body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestThrottledObtainLimitsGuessesOfOneUsername: a user authenticated by
// Basic, whom the anonymous 3/minute never counts (DRF's rule, kept),
// guesses admin's password on /api-token-auth-throttled/: 20 attempts a
// minute, then 429, where DRF's view lets them guess without limit. The
// same client may still obtain its own token.
func TestThrottledObtainLimitsGuessesOfOneUsername(t *testing.T) {
	db := newDB(t)
	cheap := auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}} // a guess costs no full PBKDF2
	c := serve(t, db, sample.PasswordHashers(cheap))
	users := &auth.Users{DB: db, Hashers: cheap}
	for _, name := range []string{"admin", "alice"} {
		u, err := users.GetByUsername(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if err := users.SetPassword(context.Background(), u, name+"-pass"); err != nil {
			t.Fatal(err)
		}
	}
	const asAlice = "Authorization: Basic YWxpY2U6YWxpY2UtcGFzcw==" // alice:alice-pass
	for i := range 20 {
		r := c.Post("/api-token-auth-throttled/", `{"username":"admin","password":"guess"}`, asAlice)
		if r.Status != http.StatusBadRequest || r.Body != `{"non_field_errors":["Unable to log in with provided credentials."]}` {
			t.Fatalf("guess %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	r := c.Post("/api-token-auth-throttled/", "username=admin&password=admin-pass", asAlice, "Content-Type: application/x-www-form-urlencoded")
	wait := r.Header.Get("Retry-After")
	if n, err := strconv.Atoi(wait); r.Status != http.StatusTooManyRequests || err != nil || n < 1 || n > 60 ||
		r.Body != `{"detail":"Request was throttled. Expected available in `+wait+` seconds."}` {
		t.Errorf("guess 21: %d %v %s, want 429 within the minute", r.Status, r.Header, r.Body)
	}
	if r := c.Post("/api-token-auth-throttled/", `{"username":"alice","password":"alice-pass"}`, asAlice); r.Status != http.StatusOK {
		t.Errorf("alice's own token: %d %s", r.Status, r.Body)
	}
}
