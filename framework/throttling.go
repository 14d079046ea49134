package framework

import (
	"context"
	"time"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Throttle decides whether a request is within its rate (allow_request);
// when not, wait is how long until it would be (DRF's wait(), 0 if unknown).
type Throttle interface {
	Allow(r *request.Request, v *View) (allowed bool, wait time.Duration, err error)
}

// ThrottleSetup is implemented by throttles whose configuration depends
// on the settings (THROTTLE_RATES, the cache, NUM_PROXIES) or on the view
// (its ThrottleScope): registration calls SetupThrottle once per view and
// uses the throttle it returns, resolved, so that no request reads the
// settings; nil drops the throttle (a scoped throttle on a view without a
// scope), and an error (a rate missing from ThrottleRates, a rate that
// does not parse) refuses the view, where each request would answer 500.
type ThrottleSetup interface {
	SetupThrottle(s *Settings, v *View) (Throttle, error)
}

// ThrottleCache keeps the request histories of rate throttles, as DRF
// keeps them in Django's cache; package cache holds a process's memory
// and Redis, which every instance of a service shares.
type ThrottleCache interface {
	// Hit is one atomic step of DRF's throttle history algorithm on the
	// history under key: the requests recorded at or before now-window
	// are forgotten; when fewer than limit remain, a request at now is
	// recorded, the history is kept for window, and Allowed is true.
	Hit(ctx context.Context, key string, now time.Time, window time.Duration, limit int) (ThrottleWindow, error)
	// HitLimits is Hit under several limits at once (a burst and a
	// sustained rate) on one history, kept for the longest window: the
	// request is recorded when every limit has room, else in none, in one
	// atomic step. windows[i] is what limits[i]'s window held before the
	// request, each with the same Allowed.
	HitLimits(ctx context.Context, key string, now time.Time, limits []ThrottleLimit) (windows []ThrottleWindow, err error)
}

// ThrottleLimit is one limit of ThrottleCache.HitLimits: at most Limit
// requests in any Window.
type ThrottleLimit struct {
	Window time.Duration
	Limit  int
}

// ThrottleWindow is what ThrottleCache.Hit found in the window before the
// request.
type ThrottleWindow struct {
	// Allowed reports whether the request was recorded.
	Allowed bool
	// Count is the number of requests in the window before this one.
	Count int
	// Oldest is the earliest of them (zero when Count is 0).
	Oldest time.Time
}

// setupThrottles resolves the view's throttles against s, once
// (ThrottleSetup).
func setupThrottles(v *View, s *Settings) error {
	var resolved []Throttle
	for _, t := range v.Throttles.items {
		if ts, ok := t.(ThrottleSetup); ok {
			var err error
			if t, err = ts.SetupThrottle(s, v); err != nil {
				return err
			}
		}
		if t != nil {
			resolved = append(resolved, t)
		}
	}
	v.Throttles.items = resolved
	return nil
}

// checkThrottles runs every throttle and raises Throttled with the longest wait.
func (v *View) checkThrottles(r *request.Request) error {
	denied := false
	var longest time.Duration
	for _, t := range v.Throttles.items {
		ok, wait, err := t.Allow(r, v)
		if err != nil {
			return err
		}
		if !ok {
			denied = true
			longest = max(longest, wait)
		}
	}
	if denied {
		return exceptions.Throttled(longest)
	}
	return nil
}
