package simplejwt_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/simplejwt"
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

// TestObtainPairLockout: three wrong passwords for alice, each from
// another address and on either of two instances sharing one Redis, lock
// her out on both: the right password is then 429 with DRF's throttled
// answer and Retry-After, from any address. The cool-off ends the
// lockout, and a success clears the count.
func TestObtainPairLockout(t *testing.T) {
	f := newFixture(t, ":memory:", simplejwt.Settings{})
	srv := testservers.StartRedis(t)
	clock := &testClock{now: time.Now().Truncate(time.Microsecond)}
	var c [2]*apitest.Client
	for i := range c {
		rc, err := cache.OpenRedis(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rc.Close() })
		users := &auth.Users{DB: f.db, Hashers: f.users.Hashers,
			Lockout: &auth.Lockout{FailureLimit: 3, CoolOff: time.Hour, Cache: rc, Now: clock.Now}}
		j, err := simplejwt.New(f.db, users, secretKey, simplejwt.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		api := framework.NewAPI(f.db, framework.Settings{ThrottleCache: rc, NumProxies: 1})
		api.Handle("/token/", j.ObtainPairView())
		c[i] = apitest.New(t, api)
	}
	from := func(n int) string { return fmt.Sprintf("X-Forwarded-For: 198.51.100.%d", n) }
	fail := func(n int) {
		t.Helper()
		body := fmt.Sprintf(`{"username":"alice","password":"guess%d"}`, n)
		if a := c[n%2].Post("/token/", body, from(n)); a.Status != 401 || a.Body != `{"detail":"No active account found with the given credentials"}` {
			t.Fatalf("guess %d: %d %s", n, a.Status, a.Body)
		}
	}
	const right = `{"username":"alice","password":"alice-pass"}`
	for n := 1; n <= 3; n++ {
		fail(n)
	}
	for n := 4; n <= 5; n++ {
		a := c[n%2].Post("/token/", right, from(n))
		if a.Status != 429 || a.Header.Get("Retry-After") != "3600" ||
			a.Body != `{"detail":"Request was throttled. Expected available in 3600 seconds."}` {
			t.Errorf("the right password after 3 failures, from a new address: %d %v %s", a.Status, a.Header, a.Body)
		}
	}

	clock.Add(time.Hour)
	if a := c[1].Post("/token/", right, from(6)); a.Status != 200 {
		t.Fatalf("alice after the cool-off: %d %s", a.Status, a.Body)
	}
	for n := 11; n <= 12; n++ {
		fail(n)
	}
	if a := c[0].Post("/token/", right, from(13)); a.Status != 200 {
		t.Fatalf("alice after 2 failures: %d %s", a.Status, a.Body)
	}
	for n := 21; n <= 23; n++ {
		fail(n) // the success cleared the count
	}
	if a := c[1].Post("/token/", right, from(24)); a.Status != 429 {
		t.Errorf("alice after 3 more failures: %d %s", a.Status, a.Body)
	}
}
