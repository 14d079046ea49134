// Package throttling holds DRF's rate throttles (rest_framework.throttling):
// RateThrottle (SimpleRateThrottle), AnonRateThrottle, UserRateThrottle and
// ScopedRateThrottle. Each is resolved once per view when it is registered
// (framework.ThrottleSetup): its rate is read from THROTTLE_RATES and
// parsed, its cache and NUM_PROXIES taken from the settings, and a rate
// that is missing or does not parse refuses the view.
package throttling

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/request"
)

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

// defaultCache is the cache of throttles whose settings name none.
var defaultCache = &cache.Memory{}

// RateThrottle is DRF's SimpleRateThrottle: Key names the client whose
// requests count together, Scope picks the rate from THROTTLE_RATES
// unless Rate is set. The built-in throttles are RateThrottles with their
// keys.
type RateThrottle struct {
	Scope string
	Rate  string
	// Key names the client from the request and its ident (the client's
	// address, DRF's get_ident, which trusts NUM_PROXIES); "" lets the
	// request through unthrottled. nil gives UserKey.
	Key func(r *request.Request, ident string) string
	// Now is the clock; nil gives time.Now.
	Now func() time.Time

	// What SetupThrottle resolved; ready marks it done.
	ready      bool
	limit      int
	per        time.Duration
	cache      framework.ThrottleCache
	numProxies int
}

// SetupThrottle resolves the rate (Rate, else the settings' rate of the
// scope), the cache and NUM_PROXIES for the view; a rate that is missing
// or does not parse is an error.
func (t RateThrottle) SetupThrottle(s *framework.Settings, _ *framework.View) (framework.Throttle, error) {
	rate := t.Rate
	if rate == "" {
		var ok bool
		if rate, ok = s.ThrottleRates[t.Scope]; !ok {
			return nil, fmt.Errorf("no default throttle rate set for %q scope", t.Scope)
		}
	}
	var err error
	if t.limit, t.per, err = ParseRate(rate); err != nil {
		return nil, err
	}
	t.cache = s.ThrottleCache
	if t.cache == nil {
		t.cache = defaultCache
	}
	if t.Key == nil {
		t.Key = UserKey
	}
	if t.Now == nil {
		t.Now = time.Now
	}
	t.numProxies, t.ready = s.NumProxies, true
	return t, nil
}

// errNotSetUp is the error of a throttle that was not registered with a
// view: it has no rate.
var errNotSetUp = errors.New("throttling: a rate throttle is resolved by registering it with a view (SetupThrottle)")

// Allow implements framework.Throttle with DRF's history algorithm.
func (t RateThrottle) Allow(r *request.Request, v *framework.View) (bool, time.Duration, error) {
	if !t.ready {
		return false, 0, errNotSetUp
	}
	key := t.Key(r, ClientIP(r, t.numProxies))
	if key == "" {
		return true, 0, nil
	}
	now := t.Now()
	w, err := t.cache.Hit(r.Context(), "throttle_"+t.Scope+"_"+key, now, t.per, t.limit)
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
	remaining := t.per
	if w.Count > 0 {
		remaining = t.per - now.Sub(w.Oldest)
	}
	var wait time.Duration
	if available := t.limit - w.Count + 1; available > 0 {
		wait = remaining / time.Duration(available)
	}
	return false, wait, nil
}

// ClientIP identifies a client as DRF's get_ident does, trusting only the
// last numProxies entries of X-Forwarded-For (none by default).
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

// AnonKey is AnonRateThrottle's key: anonymous clients by address;
// authenticated requests are not counted.
func AnonKey(r *request.Request, ident string) string {
	if r.User().IsAuthenticated() {
		return ""
	}
	return ident
}

// UserKey is UserRateThrottle's key: users by username, anonymous clients
// by address.
func UserKey(r *request.Request, ident string) string {
	if u := r.User(); u.IsAuthenticated() {
		return "user:" + u.GetUsername()
	}
	return "ip:" + ident
}

// AnonRateThrottle limits anonymous clients by address, at the "anon" rate.
func AnonRateThrottle() RateThrottle { return RateThrottle{Scope: "anon", Key: AnonKey} }

// UserRateThrottle limits users by username and anonymous clients by
// address, at the "user" rate.
func UserRateThrottle() RateThrottle { return RateThrottle{Scope: "user", Key: UserKey} }

// ScopedRateThrottle limits by the view's ThrottleScope, at that scope's
// rate, keyed as UserRateThrottle; views without a scope are not
// throttled.
type ScopedRateThrottle struct{}

// SetupThrottle resolves the view's scope; nil when the view has none.
func (ScopedRateThrottle) SetupThrottle(s *framework.Settings, v *framework.View) (framework.Throttle, error) {
	if v.ThrottleScope == "" {
		return nil, nil
	}
	return RateThrottle{Scope: v.ThrottleScope, Key: UserKey}.SetupThrottle(s, v)
}

// Allow refuses to decide: registration replaces the throttle with the
// view's scoped RateThrottle (SetupThrottle).
func (ScopedRateThrottle) Allow(*request.Request, *framework.View) (bool, time.Duration, error) {
	return false, 0, errNotSetUp
}
