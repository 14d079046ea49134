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

// parseRate reads DRF's rate notation, "3/minute" (s, m, h, d by first
// letter), and a period of several units, "10/5m" or "100/30s", which DRF
// refuses (DRF #3463).
func parseRate(rate string) (n int, per time.Duration, err error) {
	num, period, ok := strings.Cut(rate, "/")
	n, convErr := strconv.Atoi(num)
	if !ok || convErr != nil || n < 0 || period == "" {
		return 0, 0, fmt.Errorf("invalid throttle rate %q", rate)
	}
	units := 1
	if digits := len(period) - len(strings.TrimLeft(period, "0123456789")); digits > 0 {
		units, convErr = strconv.Atoi(period[:digits])
		if period = period[digits:]; convErr != nil || units == 0 || period == "" {
			return 0, 0, fmt.Errorf("invalid throttle rate %q", rate)
		}
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
	if units > int(365*24*time.Hour/per) {
		return 0, 0, fmt.Errorf("invalid throttle rate %q: a period of more than a year", rate)
	}
	return n, per * time.Duration(units), nil
}

// defaultCache is the cache of throttles whose settings name none.
var defaultCache = &cache.Memory{}

// RateThrottle is DRF's SimpleRateThrottle: Key names the client whose
// requests count together, Scope picks the rate from THROTTLE_RATES
// unless Rate or Rates is set. The built-in throttles are RateThrottles
// with their keys.
type RateThrottle struct {
	Scope string
	Rate  string
	// Rates, when set, are several limits on one history in place of the
	// one rate (a burst and a sustained rate: "3/10s", "5/minute"): a
	// request goes through when every one has room and then counts
	// against all of them, atomically in the cache; a refused request
	// counts against none. No two may have the same period.
	Rates []string
	// Headers gives every answer of the view the IETF RateLimit-Policy
	// and RateLimit fields (draft-ietf-httpapi-ratelimit-headers), one
	// item per limit: its quota and window, what remains of it after the
	// request and in how many seconds the oldest request counted leaves
	// the window. Off, the default, answers as DRF does.
	Headers bool
	// Key names the client from the request and its ident (the client's
	// address, DRF's get_ident, which trusts NUM_PROXIES); "" lets the
	// request through unthrottled. nil keys as UserRateThrottle does.
	Key func(r *request.Request, ident string) string
	// Now is the clock; nil gives time.Now.
	Now func() time.Time

	// What SetupThrottle resolved; ready marks it done.
	ready      bool
	limits     []framework.ThrottleLimit
	names      []string // the limits' policy names, quoted (Headers)
	policy     string   // the RateLimit-Policy value (Headers)
	cache      framework.ThrottleCache
	numProxies int
}

// SetupThrottle resolves the rates (Rates, else Rate, else the settings'
// rate of the scope), the cache and NUM_PROXIES for the view; a rate that
// is missing or does not parse, or two rates of one period, is an error.
// A scope whose settings' rate is "" (DRF's None) is not throttled: the
// throttle is dropped.
func (t RateThrottle) SetupThrottle(s *framework.Settings, _ *framework.View) (framework.Throttle, error) {
	rates := t.Rates
	if len(rates) == 0 {
		rate := t.Rate
		if rate == "" {
			var ok bool
			if rate, ok = s.ThrottleRates[t.Scope]; !ok {
				return nil, fmt.Errorf("no default throttle rate set for %q scope", t.Scope)
			}
			if rate == "" {
				// DRF's rate None: the scope is not throttled.
				return nil, nil
			}
		}
		rates = []string{rate}
	}
	t.limits = make([]framework.ThrottleLimit, len(rates))
	for i, rate := range rates {
		n, per, err := parseRate(rate)
		if err != nil {
			return nil, err
		}
		for _, l := range t.limits[:i] {
			if l.Window == per {
				return nil, fmt.Errorf("throttle rates %q of scope %q: two rates with a period of %v", rates, t.Scope, per)
			}
		}
		t.limits[i] = framework.ThrottleLimit{Window: per, Limit: n}
	}
	if t.Headers {
		t.names, t.policy = policies(t.Scope, t.limits)
	}
	t.cache = s.ThrottleCache
	if t.cache == nil {
		t.cache = defaultCache
	}
	if t.Key == nil {
		t.Key = userKey
	}
	if t.Now == nil {
		t.Now = time.Now
	}
	t.numProxies, t.ready = s.NumProxies, true
	return t, nil
}

// policies names the limits (the scope, "default" without one; with the
// period in seconds when there are several) as quoted Structured Field
// strings, and writes their RateLimit-Policy value.
func policies(scope string, limits []framework.ThrottleLimit) (names []string, policy string) {
	if scope == "" {
		scope = "default"
	}
	var b strings.Builder
	for i, l := range limits {
		name := scope
		if len(limits) > 1 {
			name += "-" + strconv.FormatInt(int64(l.Window/time.Second), 10) + "s"
		}
		name = strconv.Quote(name) // a scope is printable ASCII: Go's quoting is the field's
		names = append(names, name)
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s;q=%d;w=%d", name, l.Limit, int64(l.Window/time.Second))
	}
	return names, b.String()
}

// errNotSetUp is the error of a throttle that was not registered with a
// view: it has no rate.
var errNotSetUp = errors.New("throttling: a rate throttle is resolved by registering it with a view (SetupThrottle)")

// Allow implements framework.Throttle with DRF's history algorithm, under
// every limit at once.
func (t RateThrottle) Allow(r *request.Request, v *framework.View) (bool, time.Duration, error) {
	if !t.ready {
		return false, 0, errNotSetUp
	}
	ident := ClientIP(r, t.numProxies)
	if ident == "" {
		ident = "None" // DRF's get_ident of a request without REMOTE_ADDR
	}
	key := t.Key(r, ident)
	if key == "" {
		return true, 0, nil
	}
	now := t.Now()
	var one [1]framework.ThrottleWindow
	windows := one[:]
	var err error
	if len(t.limits) == 1 {
		one[0], err = t.cache.Hit(r.Context(), "throttle_"+t.Scope+"_"+key, now, t.limits[0].Window, t.limits[0].Limit)
	} else {
		windows, err = t.cache.HitLimits(r.Context(), "throttle_"+t.Scope+"_"+key, now, t.limits)
	}
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
	if t.Headers {
		t.addHeaders(r, now, windows)
	}
	if windows[0].Allowed {
		return true, 0, nil
	}
	var wait time.Duration
	for i, l := range t.limits {
		if w := windows[i]; w.Count >= l.Limit {
			wait = max(wait, drfWait(l, w, now))
		}
	}
	return false, wait, nil
}

// drfWait is DRF's wait() of a full window: the time left until its
// oldest request leaves it, shared among the requests it will then allow.
func drfWait(l framework.ThrottleLimit, w framework.ThrottleWindow, now time.Time) time.Duration {
	remaining := l.Window
	if w.Count > 0 {
		remaining = l.Window - now.Sub(w.Oldest)
	}
	if available := l.Limit - w.Count + 1; available > 0 {
		return remaining / time.Duration(available)
	}
	return 0
}

// addHeaders gives the answer the RateLimit-Policy field and a RateLimit
// item per limit: r is what remains after the request, t the seconds
// (rounded up) until the oldest request the window holds leaves it, 0
// when it holds none.
func (t RateThrottle) addHeaders(r *request.Request, now time.Time, windows []framework.ThrottleWindow) {
	r.AddAnswerHeader("RateLimit-Policy", t.policy)
	var b strings.Builder
	for i, l := range t.limits {
		w := windows[i]
		count, oldest := w.Count, w.Oldest
		if w.Allowed {
			if count == 0 {
				oldest = now
			}
			count++
		}
		var reset time.Duration
		if count > 0 {
			reset = l.Window - now.Sub(oldest)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s;r=%d;t=%d", t.names[i], max(l.Limit-count, 0), int64(max(reset+time.Second-1, 0)/time.Second))
	}
	r.AddAnswerHeader("RateLimit", b.String())
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

// anonKey is AnonRateThrottle's key: anonymous clients by address;
// authenticated requests are not counted.
func anonKey(r *request.Request, ident string) string {
	if r.User().IsAuthenticated() {
		return ""
	}
	return ident
}

// userKey is UserRateThrottle's key, DRF's: users by primary key
// (request.Identified; by username for a user type without one),
// anonymous clients by address.
func userKey(r *request.Request, ident string) string {
	u := r.User()
	if !u.IsAuthenticated() {
		return ident
	}
	if id, ok := u.(request.Identified); ok {
		return strconv.FormatInt(id.PK(), 10)
	}
	return u.GetUsername()
}

// AnonRateThrottle limits anonymous clients by address, at the "anon" rate.
func AnonRateThrottle() RateThrottle { return RateThrottle{Scope: "anon", Key: anonKey} }

// UserRateThrottle limits users by username and anonymous clients by
// address, at the "user" rate.
func UserRateThrottle() RateThrottle { return RateThrottle{Scope: "user", Key: userKey} }

// ScopedRateThrottle limits by the view's ThrottleScope, at that scope's
// rate, keyed as UserRateThrottle; views without a scope are not
// throttled.
type ScopedRateThrottle struct {
	// Now is the clock (DRF's timer()); nil gives time.Now.
	Now func() time.Time
}

// SetupThrottle resolves the view's scope; nil when the view has none.
func (st ScopedRateThrottle) SetupThrottle(s *framework.Settings, v *framework.View) (framework.Throttle, error) {
	if v.ThrottleScope == "" {
		return nil, nil
	}
	return RateThrottle{Scope: v.ThrottleScope, Key: userKey, Now: st.Now}.SetupThrottle(s, v)
}

// Allow refuses to decide: registration replaces the throttle with the
// view's scoped RateThrottle (SetupThrottle).
func (ScopedRateThrottle) Allow(*request.Request, *framework.View) (bool, time.Duration, error) {
	return false, 0, errNotSetUp
}
