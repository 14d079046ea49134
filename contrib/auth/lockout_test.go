package auth_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/internal/testservers"
)

// testClock is a clock the test moves, in Redis's microseconds.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock { return &testClock{now: time.Now().Truncate(time.Microsecond)} }

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

// sharedCaches runs fn with the caches of two instances of a service that
// share their counts: one cache.Memory for both, and two clients of one
// Redis server.
func sharedCaches(t *testing.T, fn func(t *testing.T, a, b framework.ThrottleCache)) {
	t.Run("memory", func(t *testing.T) {
		m := &cache.Memory{}
		fn(t, m, m)
	})
	t.Run("redis", func(t *testing.T) {
		srv := testservers.StartRedis(t)
		fn(t, openRedis(t, srv.URL), openRedis(t, srv.URL))
	})
}

func openRedis(t *testing.T, url string) *cache.Redis {
	t.Helper()
	c, err := cache.OpenRedis(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// lockedOut returns the wait of a *LockedOutError, and whether err is one.
func lockedOut(err error) (time.Duration, bool) {
	locked, ok := errors.AsType[*auth.LockedOutError](err)
	if !ok {
		return 0, false
	}
	return locked.Wait, true
}

// TestLockout: two instances of a service count the failed logins of a
// username together, whatever the form of the name; once the limit is
// reached even the right password is refused, without a password hash,
// for the rest of the cool-off, while other users log in; the count ends
// with the cool-off and with a successful login.
func TestLockout(t *testing.T) {
	sharedCaches(t, func(t *testing.T, cacheA, cacheB framework.ThrottleCache) {
		ctx := context.Background()
		users := migrated(t)
		var work atomic.Int64
		users.Hashers = auth.Hashers{workHasher{auth.PBKDF2Hasher{Iterations: 1000}, &work}}
		for _, name := range []string{"alice", "bob"} {
			if _, err := users.CreateUser(ctx, name, "", name+"-pass"); err != nil {
				t.Fatal(err)
			}
		}
		clock := newTestClock()
		instance := func(c framework.ThrottleCache) *auth.Users {
			return &auth.Users{DB: users.DB, Hashers: users.Hashers,
				Lockout: &auth.Lockout{FailureLimit: 3, CoolOff: time.Minute, Cache: c, Now: clock.Now}}
		}
		a, b := instance(cacheA), instance(cacheB)
		fail := func(u *auth.Users, name string) {
			t.Helper()
			if _, err := u.Authenticate(ctx, name, "guess"); err != auth.ErrInvalidCredentials {
				t.Fatalf("a failure on %q: %v, want ErrInvalidCredentials", name, err)
			}
			clock.Add(10 * time.Second)
		}
		// Three failures, on either instance and in any form of the name.
		fail(a, "alice")
		fail(b, "ALICE")
		fail(a, "ａｌｉｃｅ")
		work.Store(0)
		_, err := b.Authenticate(ctx, "alice", "alice-pass")
		if wait, ok := lockedOut(err); !ok || wait != 30*time.Second || !errors.Is(err, auth.ErrInvalidCredentials) {
			t.Fatalf("the right password after 3 failures: %v, want locked out for 30s", err)
		}
		if work.Load() != 0 {
			t.Errorf("a locked-out login ran %d hash iterations, want none", work.Load())
		}
		if u, err := (auth.ModelBackend{Users: a}).CheckPassword(ctx, "alice", "alice-pass"); u != nil || err != nil {
			t.Errorf("ModelBackend (Basic) while locked: %v, %v; want no user", u, err)
		}
		if _, err := a.Authenticate(ctx, "bob", "bob-pass"); err != nil {
			t.Errorf("bob while alice is locked: %v", err)
		}
		// The first failure leaves the cool-off: one more attempt, and the
		// success clears the other two.
		clock.Add(30 * time.Second)
		if _, err := a.Authenticate(ctx, "alice", "alice-pass"); err != nil {
			t.Fatalf("alice a cool-off after her first failure: %v", err)
		}
		fail(b, "alice")
		fail(a, "alice")
		if _, err := b.Authenticate(ctx, "alice", "alice-pass"); err != nil {
			t.Fatalf("alice after 2 failures: %v", err)
		}
		fail(a, "alice")
		fail(b, "alice")
		fail(a, "alice")
		if _, err := b.Authenticate(ctx, "alice", "alice-pass"); err == nil {
			t.Error("3 failures after the success did not lock")
		}
	})
}

// TestLockoutCountsAttemptsInFlight: attempts sent at once get no more
// password checks than the limit, on either instance.
func TestLockoutCountsAttemptsInFlight(t *testing.T) {
	sharedCaches(t, func(t *testing.T, cacheA, cacheB framework.ThrottleCache) {
		ctx := context.Background()
		users := migrated(t)
		if _, err := users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
			t.Fatal(err)
		}
		a := &auth.Users{DB: users.DB, Hashers: users.Hashers, Lockout: &auth.Lockout{Cache: cacheA}}
		b := &auth.Users{DB: users.DB, Hashers: users.Hashers, Lockout: &auth.Lockout{Cache: cacheB}}
		const limit = 5 // a zero FailureLimit's
		const attempts = 4 * limit
		var checked, locked atomic.Int64
		var wg sync.WaitGroup
		for i := range attempts {
			wg.Go(func() {
				u := a
				if i%2 == 1 {
					u = b
				}
				_, err := u.Authenticate(ctx, "alice", "guess")
				if _, ok := lockedOut(err); ok {
					locked.Add(1)
				} else if err == auth.ErrInvalidCredentials {
					checked.Add(1)
				} else {
					t.Errorf("attempt %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if checked.Load() != limit || locked.Load() != attempts-limit {
			t.Errorf("%d passwords checked and %d attempts locked out, want %d and %d",
				checked.Load(), locked.Load(), limit, attempts-limit)
		}
	})
}

// TestLockoutCacheDownLetsLoginsThrough: with the cache's Redis gone,
// logins are checked uncounted, and the failure is logged.
func TestLockoutCacheDownLetsLoginsThrough(t *testing.T) {
	ctx := context.Background()
	srv := testservers.StartRedis(t)
	var log bytes.Buffer
	users := migrated(t)
	users.Lockout = &auth.Lockout{FailureLimit: 1, Cache: openRedis(t, srv.URL), Logger: slog.New(slog.NewTextHandler(&log, nil))}
	if _, err := users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	for range 3 {
		if _, err := users.Authenticate(ctx, "alice", "guess"); err != auth.ErrInvalidCredentials {
			t.Fatalf("a failure with the cache down: %v", err)
		}
	}
	if _, err := users.Authenticate(ctx, "alice", "alice-pass"); err != nil {
		t.Errorf("the right password with the cache down: %v", err)
	}
	// 5 calls on the cache: the first failure is logged, not the Redis
	// cool-down's refusals that follow it within a second.
	if n := strings.Count(log.String(), "login lockout cache unavailable"); n < 1 || n >= 5 {
		t.Errorf("logged %d times, want once, not once a call:\n%s", n, log.String())
	}
}

// TestLockoutAtTheSessionLoginPage: Django's login page, which knows
// only wrong credentials, refuses a locked-out username as one, even with
// the right password.
func TestLockoutAtTheSessionLoginPage(t *testing.T) {
	ctx := context.Background()
	users := migrated(t)
	users.Lockout = &auth.Lockout{FailureLimit: 2, Cache: &cache.Memory{}}
	if _, err := migrations.Migrate(ctx, users.DB, sessions.Migrations...); err != nil {
		t.Fatal(err)
	}
	if _, err := users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	m := &sessions.Manager{DB: users.DB, Users: users, SecretKey: "test-secret-key"}
	api := framework.NewAPI(users.DB, framework.Settings{})
	api.HandleHTTP("/api-auth/login/", m.LoginPage(), framework.Named("login"))
	c := apitest.New(t, m.Middleware(api))
	for range 2 {
		if c.Login("alice", "guess") {
			t.Fatal("a wrong password logged in")
		}
	}
	if c.Login("alice", "alice-pass") || c.Cookie("sessionid") != "" {
		t.Error("a locked-out username logged in at the session login page")
	}
}
