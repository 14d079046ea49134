package authtoken_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/internal/testservers"
)

// testClock is a clock the test moves, in Redis's microseconds.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// lockoutInstances returns two instances of the obtain view, each with
// its own client of one Redis server, as its throttle cache and as the
// cache of its users' Lockout (the defaults: 5 failures, 15 minutes),
// behind one proxy (clients told apart by X-Forwarded-For) and with the
// per-client LoginAttemptThrottle at 20 a minute.
func (f *fixture) lockoutInstances(t *testing.T, clock *testClock) [2]*apitest.Client {
	t.Helper()
	srv := testservers.StartRedis(t)
	var instances [2]*apitest.Client
	for i := range instances {
		c, err := cache.OpenRedis(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		users := &auth.Users{DB: f.db, Hashers: f.users.Hashers, Lockout: &auth.Lockout{Cache: c, Now: clock.Now}}
		instances[i] = f.obtainServer(t, authtoken.ObtainToken{Users: users, Tokens: f.tokens}, func(v *framework.View, s *framework.Settings) {
			s.ThrottleRates = map[string]string{"login": "20/minute"}
			s.ThrottleCache = c
			s.NumProxies = 1
			v.Throttles = framework.Throttles(authtoken.LoginAttemptThrottle())
		})
	}
	return instances
}

// from is the header of a request from the client at 198.51.100.n.
func from(n int) string { return fmt.Sprintf("X-Forwarded-For: 198.51.100.%d", n) }

// TestObtainTokenLockout: five wrong passwords for admin, each from
// another address (which the per-client throttle lets through) and on
// either of two instances, lock admin out on both: the right password is
// then 429 with DRF's throttled answer and the cool-off's Retry-After,
// from any address, while alice still logs in. The cool-off ends the
// lockout, and a success clears the count.
func TestObtainTokenLockout(t *testing.T) {
	f := newFixture(t, ":memory:")
	clock := &testClock{now: time.Now().Truncate(time.Microsecond)}
	c := f.lockoutInstances(t, clock)
	const unable = `{"non_field_errors":["Unable to log in with provided credentials."]}`
	fail := func(n int) {
		t.Helper()
		body := fmt.Sprintf(`{"username":"admin","password":"guess%d"}`, n)
		if a := c[n%2].Post("/", body, jsonType, from(n)); a.Status != 400 || a.Body != unable {
			t.Fatalf("guess %d: %d %s", n, a.Status, a.Body)
		}
	}
	const right = `{"username":"admin","password":"admin-pass"}`
	for n := 1; n <= 5; n++ {
		fail(n)
	}
	for n := 6; n <= 7; n++ {
		a := c[n%2].Post("/", right, jsonType, from(n))
		if a.Status != 429 || a.Header.Get("Retry-After") != "900" ||
			a.Body != `{"detail":"Request was throttled. Expected available in 900 seconds."}` {
			t.Errorf("the right password after 5 failures, from a new address: %d %v %s", a.Status, a.Header, a.Body)
		}
	}
	if a := c[0].Post("/", `{"username":"alice","password":"alice-pass"}`, jsonType, from(1)); a.Status != 200 {
		t.Errorf("alice while admin is locked out: %d %s", a.Status, a.Body)
	}

	clock.Add(15 * time.Minute)
	if a := c[1].Post("/", right, jsonType, from(8)); a.Status != 200 {
		t.Fatalf("admin after the cool-off: %d %s", a.Status, a.Body)
	}
	for n := 11; n <= 14; n++ {
		fail(n)
	}
	if a := c[0].Post("/", right, jsonType, from(15)); a.Status != 200 {
		t.Fatalf("admin after 4 failures: %d %s", a.Status, a.Body)
	}
	for n := 21; n <= 25; n++ {
		fail(n) // the success cleared the count
	}
	if a := c[1].Post("/", right, jsonType, from(26)); a.Status != 429 {
		t.Errorf("admin after 5 more failures: %d %s", a.Status, a.Body)
	}
}

// TestObtainTokenNoLockoutByDefault: without a Lockout, at either
// compatibility level, failures from many addresses lock no one out, as
// in DRF.
func TestObtainTokenNoLockoutByDefault(t *testing.T) {
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		f := newFixture(t, ":memory:")
		c := f.obtainServer(t, authtoken.ObtainToken{Users: f.users, Tokens: f.tokens}, func(_ *framework.View, s *framework.Settings) {
			s.Compatibility = level
			s.NumProxies = 1
		})
		for n := 1; n <= 10; n++ {
			if a := c.Post("/", `{"username":"admin","password":"guess"}`, jsonType, from(n)); a.Status != 400 {
				t.Fatalf("%v, guess %d: %d %s", level, n, a.Status, a.Body)
			}
		}
		if a := c.Post("/", `{"username":"admin","password":"admin-pass"}`, jsonType, from(11)); a.Status != 200 {
			t.Errorf("%v, the right password after 10 failures: %d %s", level, a.Status, a.Body)
		}
	}
}
