package framework_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
)

// TestThrottleWithoutRateFailsHandle: a throttle whose rate is missing from
// ThrottleRates, or does not parse, fails registration with a message
// naming the view, where every request answered 500 ("no default throttle
// rate set").
func TestThrottleWithoutRateFailsHandle(t *testing.T) {
	ok := func(*framework.View, *request.Request) (*framework.Response, error) {
		return &framework.Response{Status: 200}, nil
	}
	for _, c := range []struct {
		name string
		s    framework.Settings
		v    framework.View
		want string // "" for a registration that succeeds
	}{
		{"user rate missing", framework.Settings{Throttles: framework.Throttles(throttling.UserRateThrottle())}, framework.View{Get: ok},
			`framework: the view at "/x/": no default throttle rate set for "user" scope`},
		{"rate that does not parse", framework.Settings{ThrottleRates: map[string]string{"anon": "3/fortnight"}}, framework.View{Get: ok,
			Throttles: framework.Throttles(throttling.AnonRateThrottle())}, `framework: the view at "/x/": invalid throttle rate "3/fortnight"`},
		{"scope without a rate", framework.Settings{Throttles: framework.Throttles(throttling.ScopedRateThrottle{})},
			framework.View{Get: ok, ThrottleScope: "uploads"}, `no default throttle rate set for "uploads" scope`},
		{"scope with a rate", framework.Settings{Throttles: framework.Throttles(throttling.ScopedRateThrottle{}), ThrottleRates: map[string]string{"uploads": "2/hour"}},
			framework.View{Get: ok, ThrottleScope: "uploads"}, ""},
		{"no scope", framework.Settings{Throttles: framework.Throttles(throttling.ScopedRateThrottle{})}, framework.View{Get: ok}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if c.want == "" && msg != "" || !strings.Contains(msg, c.want) {
					t.Errorf("Handle panicked with %q, want %q", msg, c.want)
				}
			}()
			framework.NewAPI(nil, c.s).Handle("/x/", c.v)
		})
	}
}
