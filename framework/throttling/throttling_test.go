package throttling_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
)

func TestParseRate(t *testing.T) {
	for _, bad := range []string{"", "3", "x/minute", "3/", "3/year", "-1/s"} {
		if _, _, err := throttling.ParseRate(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if n, per, err := throttling.ParseRate("100/day"); err != nil || n != 100 || per != 24*time.Hour {
		t.Errorf("100/day: %d %v %v", n, per, err)
	}
}

// TestParseRatePeriodCount: a period of several units ("10/5m", DRF
// #3463), read by the unit's first letter as DRF reads one unit; DRF's
// own notation keeps its meaning.
func TestParseRatePeriodCount(t *testing.T) {
	for rate, want := range map[string]time.Duration{
		"10/5m": 5 * time.Minute, "100/30s": 30 * time.Second, "10/5minutes": 5 * time.Minute,
		"10/2hour": 2 * time.Hour, "10/7d": 7 * 24 * time.Hour, "10/minute": time.Minute, "10/1s": time.Second,
	} {
		if n, per, err := throttling.ParseRate(rate); err != nil || n != 10 && n != 100 || per != want {
			t.Errorf("%q: %d %v %v, want %v", rate, n, per, err, want)
		}
	}
	for _, bad := range []string{"10/0s", "10/5", "10/5y", "10/400d", "10/99999999999999999999s", "10/-5s"} {
		if _, _, err := throttling.ParseRate(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// clock is a test's time, moved by hand.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// throttled is a handler whose view is limited by th, answering 200 on
// GET and 404 on DELETE, with the clock c.
func throttled(th throttling.RateThrottle, c *clock) http.Handler {
	th.Now = c.Now
	th.Key = func(*request.Request, string) string { return "client" }
	return apitest.View(framework.View{
		Throttles: framework.Throttles(th),
		Get: func(*framework.View, *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]string{"ok": "yes"}), nil
		},
		Delete: func(*framework.View, *request.Request) (*framework.Response, error) {
			return nil, exceptions.NotFound()
		},
	}, framework.Settings{ThrottleCache: &cache.Memory{}})
}

// TestRateLimitHeaders: with Headers, every answer (200, an error, the
// 429) carries RateLimit-Policy and a RateLimit item per limit; the 429
// keeps DRF's Retry-After and body, the longest wait of the full limits.
func TestRateLimitHeaders(t *testing.T) {
	c := &clock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	api := apitest.New(t, throttled(throttling.RateThrottle{Scope: "burst", Rates: []string{"2/10s", "3/minute"}, Headers: true}, c))
	const policy = `"burst-10s";q=2;w=10, "burst-60s";q=3;w=60`
	steps := []struct {
		method    string
		after     time.Duration
		status    int
		rateLimit string
		retry     string
	}{
		{"GET", 0, 200, `"burst-10s";r=1;t=10, "burst-60s";r=2;t=60`, ""},
		{"DELETE", 4 * time.Second, 404, `"burst-10s";r=0;t=6, "burst-60s";r=1;t=56`, ""},
		{"GET", time.Second, 429, `"burst-10s";r=0;t=5, "burst-60s";r=1;t=55`, "5"},
		{"GET", 5 * time.Second, 200, `"burst-10s";r=0;t=4, "burst-60s";r=0;t=50`, ""},
		{"GET", 30 * time.Second, 429, `"burst-10s";r=2;t=0, "burst-60s";r=0;t=20`, "20"},
	}
	for i, s := range steps {
		c.now = c.now.Add(s.after)
		res := api.Do(s.method, "/", "")
		if res.Status != s.status || res.Header.Get("RateLimit-Policy") != policy ||
			res.Header.Get("RateLimit") != s.rateLimit || res.Header.Get("Retry-After") != s.retry {
			t.Errorf("step %d: %d RateLimit-Policy %q RateLimit %q Retry-After %q; want %d %q %q", i+1, res.Status,
				res.Header.Get("RateLimit-Policy"), res.Header.Get("RateLimit"), res.Header.Get("Retry-After"), s.status, s.rateLimit, s.retry)
		}
		if s.status == 429 && res.JSON()["detail"] != "Request was throttled. Expected available in "+s.retry+" seconds." {
			t.Errorf("step %d: %s", i+1, res.Body)
		}
	}
}

// TestRateLimitHeadersOptIn: a throttle without Headers answers as DRF:
// no RateLimit fields, Retry-After on 429 only; one rate is named by the
// scope.
func TestRateLimitHeadersOptIn(t *testing.T) {
	c := &clock{now: time.Now()}
	api := apitest.New(t, throttled(throttling.RateThrottle{Rate: "1/5m"}, c))
	if res := api.Get("/"); res.Status != 200 || res.Header.Get("RateLimit") != "" || res.Header.Get("RateLimit-Policy") != "" {
		t.Errorf("first: %d %v", res.Status, res.Header)
	}
	c.now = c.now.Add(time.Minute)
	if res := api.Get("/"); res.Status != 429 || res.Header.Get("Retry-After") != "240" || res.Header.Get("RateLimit") != "" {
		t.Errorf("second: %d %v", res.Status, res.Header)
	}
	api = apitest.New(t, throttled(throttling.RateThrottle{Scope: "books", Rate: "5/30s", Headers: true}, c))
	if res := api.Get("/"); res.Header.Get("RateLimit-Policy") != `"books";q=5;w=30` || res.Header.Get("RateLimit") != `"books";r=4;t=30` {
		t.Errorf("one rate: %v", res.Header)
	}
}

// TestRatesRefusedAtSetup: two rates of one period, or one that does not
// parse, refuse the view.
func TestRatesRefusedAtSetup(t *testing.T) {
	for _, rates := range [][]string{{"3/10s", "5/10second"}, {"3/10s", "5/fortnight"}} {
		if _, err := (throttling.RateThrottle{Scope: "x", Rates: rates}).SetupThrottle(&framework.Settings{}, &framework.View{}); err == nil {
			t.Errorf("%q set up", rates)
		}
	}
}

// TestUnregisteredThrottlesDoNotAllow: a throttle used without being
// registered with a view has no rate; it fails rather than letting
// requests through.
func TestUnregisteredThrottlesDoNotAllow(t *testing.T) {
	r := request.New(httptest.NewRequest("GET", "/", nil), request.Config{})
	for _, th := range []framework.Throttle{throttling.UserRateThrottle(), throttling.ScopedRateThrottle{}} {
		if ok, _, err := th.Allow(r, &framework.View{}); ok || err == nil {
			t.Errorf("%T: allowed %v, error %v", th, ok, err)
		}
	}
}

// TestSetupResolvesOnce: the rate, the cache and NUM_PROXIES are read
// from the settings when the throttle is set up; a scoped throttle on a
// view without a scope is dropped.
func TestSetupResolvesOnce(t *testing.T) {
	s := &framework.Settings{ThrottleRates: map[string]string{"user": "1/minute"}, NumProxies: 1}
	th, err := throttling.UserRateThrottle().SetupThrottle(s, &framework.View{})
	if err != nil {
		t.Fatal(err)
	}
	s.ThrottleRates["user"] = "100/minute" // too late: already resolved
	hr := httptest.NewRequest("GET", "/", nil)
	hr.Header.Set("X-Forwarded-For", "203.0.113.9")
	v := &framework.View{}
	for i, want := range []bool{true, false} {
		ok, _, err := th.Allow(request.New(hr, request.Config{}), v)
		if ok != want || err != nil {
			t.Errorf("request %d: allowed %v (%v), want %v", i+1, ok, err, want)
		}
	}
	if th, err := (throttling.ScopedRateThrottle{}).SetupThrottle(s, &framework.View{}); th != nil || err != nil {
		t.Errorf("no scope: %v %v, want no throttle", th, err)
	}
}
