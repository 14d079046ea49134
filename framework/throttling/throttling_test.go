package throttling_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
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
