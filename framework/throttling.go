package framework

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Throttle decides whether a request is within its rate (allow_request);
// when not, wait is how long until it would be (DRF's wait(), 0 if unknown).
type Throttle interface {
	Allow(r *request.Request, v *View) (allowed bool, wait time.Duration, err error)
}

// ThrottleChecker is implemented by throttles that can tell, when a view
// is registered, that they could not work for it (a rate missing from
// ThrottleRates, a rate that does not parse): API.Handle refuses the view
// with the error, where each request would answer 500.
type ThrottleChecker interface {
	CheckThrottle(v *View) error
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

// defaultCache is the cache of throttles whose settings name none.
var defaultCache = &cache.Memory{}

// ParseRate reads DRF's rate notation, "3/minute" (s, m, h, d by first letter).
func ParseRate(rate string) (n int, per time.Duration, err error) {
	num, period, ok := strings.Cut(rate, "/")
	n, convErr := strconv.Atoi(num)
	if !ok || convErr != nil || n < 0 || period == "" {
		return 0, 0, fmt.Errorf("invalid throttle rate %q", rate)
	}
	switch period[0] {
	case 's':
		per = time.Second
	case 'm':
		per = time.Minute
	case 'h':
		per = time.Hour
	case 'd':
		per = 24 * time.Hour
	default:
		return 0, 0, fmt.Errorf("invalid throttle rate %q", rate)
	}
	return n, per, nil
}

// RateThrottle is DRF's SimpleRateThrottle: Key names the client (""
// means "do not throttle"), Scope picks the rate from ThrottleRates unless
// Rate is set. The built-in throttles are RateThrottles with their keys.
type RateThrottle struct {
	Scope string
	Rate  string
	Key   func(r *request.Request, v *View) string
	// Now is the clock; nil gives time.Now.
	Now func() time.Time
}

// rate returns the throttle's limit and period for v: Rate, else the
// settings' rate of its Scope.
func (t RateThrottle) rate(v *View) (int, time.Duration, error) {
	rate := t.Rate
	if rate == "" {
		var ok bool
		if rate, ok = v.Global().ThrottleRates[t.Scope]; !ok {
			return 0, 0, fmt.Errorf("no default throttle rate set for %q scope", t.Scope)
		}
	}
	return ParseRate(rate)
}

// CheckThrottle reports a rate that is missing or does not parse.
func (t RateThrottle) CheckThrottle(v *View) error {
	_, _, err := t.rate(v)
	return err
}

// Allow implements Throttle with DRF's history algorithm.
func (t RateThrottle) Allow(r *request.Request, v *View) (bool, time.Duration, error) {
	s := v.Global()
	limit, per, err := t.rate(v)
	if err != nil {
		return false, 0, err
	}
	key := t.Key(r, v)
	if key == "" {
		return true, 0, nil
	}
	now := time.Now()
	if t.Now != nil {
		now = t.Now()
	}
	c := s.ThrottleCache
	if c == nil {
		c = defaultCache
	}
	w, err := c.Hit(r.Context(), "throttle_"+t.Scope+"_"+key, now, per, limit)
	if gone := r.Context().Err(); err != nil && gone != nil {
		return false, 0, gone // the client went away: not the cache's failure
	}
	if err != nil {
		// A cache that is down must not take the service down with it:
		// the request goes through unthrottled, and the failure is logged
		// (once per attempt: not for requests a cooling-down cache
		// refuses without trying).
		if !errors.Is(err, cache.ErrUnavailable) {
			v.Logger().WarnContext(r.Context(), "throttle cache unavailable: requests allowed", "scope", t.Scope, "error", err)
		}
		return true, 0, nil
	}
	if w.Allowed {
		return true, 0, nil
	}
	remaining := per
	if w.Count > 0 {
		remaining = per - now.Sub(w.Oldest)
	}
	var wait time.Duration
	if available := limit - w.Count + 1; available > 0 {
		wait = remaining / time.Duration(available)
	}
	return false, wait, nil
}

// ClientIP identifies a client as DRF's get_ident does, trusting only the
// last NumProxies entries of X-Forwarded-For (none by default).
func ClientIP(r *request.Request, numProxies int) string {
	if xff := r.Header.Get("X-Forwarded-For"); numProxies > 0 && xff != "" {
		addrs := strings.Split(xff, ",")
		return strings.TrimSpace(addrs[len(addrs)-min(numProxies, len(addrs))])
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// AnonRateThrottle limits anonymous clients by IP, at the "anon" rate.
func AnonRateThrottle() RateThrottle {
	return RateThrottle{Scope: "anon", Key: func(r *request.Request, v *View) string {
		if r.User().IsAuthenticated() {
			return ""
		}
		return ClientIP(r, v.Global().NumProxies)
	}}
}

// UserRateThrottle limits users by username and anonymous clients by IP,
// at the "user" rate.
func UserRateThrottle() RateThrottle {
	return RateThrottle{Scope: "user", Key: userOrIP}
}

func userOrIP(r *request.Request, v *View) string {
	if u := r.User(); u.IsAuthenticated() {
		return "user:" + u.GetUsername()
	}
	return "ip:" + ClientIP(r, v.Global().NumProxies)
}

// ScopedRateThrottle limits by the view's ThrottleScope, at that scope's
// rate; views without a scope are not throttled.
type ScopedRateThrottle struct{}

// CheckThrottle reports a view scope without a rate that parses.
func (ScopedRateThrottle) CheckThrottle(v *View) error {
	if v.ThrottleScope == "" {
		return nil
	}
	return RateThrottle{Scope: v.ThrottleScope}.CheckThrottle(v)
}

// Allow implements Throttle.
func (ScopedRateThrottle) Allow(r *request.Request, v *View) (bool, time.Duration, error) {
	if v.ThrottleScope == "" {
		return true, 0, nil
	}
	return RateThrottle{Scope: v.ThrottleScope, Key: userOrIP}.Allow(r, v)
}
