package throttling_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_throttling.py, ported onto the rate throttles:
// each test method is an item named by its class and method, run at both
// compatibility levels with DRF's assertions. A throttle class's timer()
// is its RateThrottle's Now (ScopedRateThrottle's Now), the test's
// clock; Django's cache, cleared in setUp, is a new cache.Memory per
// item, watched for the keys it is given (get_cache_key).

// drfUser is the test's User.objects.create(username=...): an
// authenticated user with a primary key.
type drfUser struct {
	pk   int64
	name string
}

func (u drfUser) GetUsername() string   { return u.name }
func (u drfUser) IsAuthenticated() bool { return true }
func (u drfUser) IsActive() bool        { return true }
func (u drfUser) IsStaff() bool         { return false }
func (u drfUser) PK() int64             { return u.pk }

// drfUsers authenticates "X-User: NAME" as force_authenticate does, the
// users numbered as they are created.
type drfUsers struct{ pks map[string]int64 }

func (s drfUsers) Authenticate(r *request.Request) (request.User, any, error) {
	name := r.Header.Get("X-User")
	if name == "" {
		return nil, nil, nil
	}
	if _, ok := s.pks[name]; !ok {
		s.pks[name] = int64(len(s.pks) + 1)
	}
	return drfUser{pk: s.pks[name], name: name}, nil, nil
}

// drfCache is the item's Django cache; keys are the history keys it was
// given, in order.
type drfCache struct {
	cache.Memory
	keys []string
}

func (c *drfCache) Hit(ctx context.Context, key string, now time.Time, window time.Duration, limit int) (framework.ThrottleWindow, error) {
	c.keys = append(c.keys, key)
	return c.Memory.Hit(ctx, key, now, window, limit)
}

// drfThrottling is one item's cache, clock and settings.
type drfThrottling struct {
	t     *testing.T
	level framework.Compatibility
	cache *drfCache
	now   int64 // seconds since the epoch: the throttles' timer()
	users drfUsers
	rates map[string]string
	// numProxies is api_settings.NUM_PROXIES.
	numProxies int
}

func newDRFThrottling(t *testing.T, level framework.Compatibility) *drfThrottling {
	return &drfThrottling{t: t, level: level, cache: &drfCache{}, users: drfUsers{pks: map[string]int64{}}}
}

func (d *drfThrottling) clock() time.Time { return time.Unix(d.now, 0) }

// view is an APIView answering GET 'foo' under throttles and scope.
func (d *drfThrottling) view(scope string, throttles ...framework.Throttle) http.Handler {
	api := framework.NewAPI(nil, framework.Settings{Compatibility: d.level, ThrottleCache: d.cache,
		ThrottleRates: d.rates, NumProxies: d.numProxies})
	api.Handle("/", framework.View{
		Authentication: framework.Authenticators(d.users),
		Permissions:    framework.Permissions(framework.AllowAny{}),
		Throttles:      framework.Throttles(throttles...),
		ThrottleScope:  scope,
		Get: func(*framework.View, *request.Request) (*framework.Response, error) {
			return framework.OK("foo"), nil
		},
	})
	return api
}

// get is factory.get('/') from REMOTE_ADDR addr, as user when not "",
// with X-Forwarded-For xff when not "".
func get(h http.Handler, addr, user, xff string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = addr
	if user != "" {
		r.Header.Set("X-User", user)
	}
	if xff != "" {
		r.Header.Set("X-Forwarded-For", xff)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// userThrottle is a UserRateThrottle subclass of the test's: its rate
// and scope, on the item's clock.
func (d *drfThrottling) userThrottle(rate, scope string) throttling.RateThrottle {
	th := throttling.UserRateThrottle()
	th.Rate, th.Scope, th.Now = rate, scope, d.clock
	return th
}

// The views of the file: MockView (User3SecRateThrottle),
// MockView_DoubleThrottling (User3SecRateThrottle, User6MinRateThrottle)
// and MockView_MinuteThrottling (User3MinRateThrottle).
func (d *drfThrottling) mockView() http.Handler {
	return d.view("", d.userThrottle("3/sec", "seconds"))
}

func (d *drfThrottling) doubleView(secRate string) http.Handler {
	return d.view("", d.userThrottle(secRate, "seconds"), d.userThrottle("6/min", "minutes"))
}

func (d *drfThrottling) minuteView() http.Handler {
	return d.view("", d.userThrottle("3/min", "minutes"))
}

// nonTimeThrottle is NonTimeThrottle: the first request passes, the
// others are refused with no wait.
type nonTimeThrottle struct{ called *bool }

func (n nonTimeThrottle) Allow(*request.Request, *framework.View) (bool, time.Duration, error) {
	if !*n.called {
		*n.called = true
		return true, 0, nil
	}
	return false, 0, nil
}

const drfAddr = "127.0.0.1:1234"

// headerSequence is ensure_response_header_contains_proper_throttle_field:
// at each timer, a request, whose Retry-After is want ("" none).
func (d *drfThrottling) headerSequence(h http.Handler, steps ...[2]any) []string {
	var c drfsuite.Checks
	for i, s := range steps {
		d.now = int64(s[0].(int))
		got := get(h, drfAddr, "", "").Header().Values("Retry-After")
		if want := s[1].(string); want == "" {
			c.Equal(fmt.Sprintf("request %d: Retry-After", i+1), got, []string(nil))
		} else {
			c.Equal(fmt.Sprintf("request %d: Retry-After", i+1), got, []string{want})
		}
	}
	return c
}

// registers reports whether registering the view of th succeeds
// (SimpleRateThrottle() raising ImproperlyConfigured when not).
func (d *drfThrottling) registers(th framework.Throttle) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	d.view("", th)
	return true
}

// scoped is ScopedRateThrottleTests' and XffTestingBase's throttle, on
// the item's clock.
func (d *drfThrottling) scoped() throttling.ScopedRateThrottle {
	return throttling.ScopedRateThrottle{Now: d.clock}
}

func drfThrottleItem(name string, run func(d *drfThrottling) []string) drfsuite.Item {
	return drfsuite.Item{Name: name, Run: func(t *testing.T, level framework.Compatibility) []string {
		return run(newDRFThrottling(t, level))
	}}
}

// xffItem is an item of XffTestingBase: a view of scope test_limit at
// 1/day, NUM_PROXIES proxies, the first request from REMOTE_ADDR
// 3.3.3.3 forwarded for "0.0.0.0, 1.1.1.1, 2.2.2.2", the second
// forwarded for second, answered want.
func xffItem(name string, proxies int, second string, want int) drfsuite.Item {
	return drfThrottleItem(name, func(d *drfThrottling) []string {
		d.rates, d.numProxies = map[string]string{"test_limit": "1/day"}, proxies
		h := d.view("test_limit", d.scoped())
		var c drfsuite.Checks
		c.Equal("first request: status_code", get(h, "3.3.3.3:1234", "", "0.0.0.0, 1.1.1.1, 2.2.2.2").Code, 200)
		c.Equal("response.status_code", get(h, "3.3.3.3:1234", "", second).Code, want)
		return c
	})
}

var drfThrottlingItems = []drfsuite.Item{
	drfThrottleItem("ThrottlingTests.test_requests_are_throttled", func(d *drfThrottling) []string {
		h := d.mockView()
		var code int
		for range 4 {
			code = get(h, drfAddr, "", "").Code
		}
		var c drfsuite.Checks
		c.Equal("response.status_code", code, 429)
		return c
	}),
	drfThrottleItem("ThrottlingTests.test_request_throttling_expires", func(d *drfThrottling) []string {
		h := d.mockView()
		var c drfsuite.Checks
		var code int
		for range 4 {
			code = get(h, drfAddr, "", "").Code
		}
		c.Equal("response.status_code", code, 429)
		d.now = 1
		c.Equal("response.status_code after a second", get(h, drfAddr, "", "").Code, 200)
		return c
	}),
	drfThrottleItem("ThrottlingTests.test_request_throttling_is_per_user", func(d *drfThrottling) []string {
		h := d.mockView()
		for range 3 {
			get(h, drfAddr, "a", "")
		}
		var c drfsuite.Checks
		c.Equal("response.status_code", get(h, drfAddr, "b", "").Code, 200)
		return c
	}),
	drfThrottleItem("ThrottlingTests.test_request_throttling_multiple_throttles", func(d *drfThrottling) []string {
		h := d.doubleView("3/sec")
		var c drfsuite.Checks
		var w *httptest.ResponseRecorder
		for range 4 {
			w = get(h, drfAddr, "", "")
		}
		c.Equal("response.status_code", w.Code, 429)
		c.Equal("retry-after", w.Header().Get("Retry-After"), "1")
		d.now = 1
		for i := range 2 {
			c.Equal(fmt.Sprintf("request %d at 1s: status_code", i+1), get(h, drfAddr, "", "").Code, 200)
		}
		w = get(h, drfAddr, "", "")
		c.Equal("third request at 1s: status_code", w.Code, 429)
		c.Equal("third request at 1s: retry-after", w.Header().Get("Retry-After"), "59")
		d.now = 2
		w = get(h, drfAddr, "", "")
		c.Equal("request at 2s: status_code", w.Code, 429)
		c.Equal("request at 2s: retry-after", w.Header().Get("Retry-After"), "58")
		return c
	}),
	drfThrottleItem("ThrottlingTests.test_throttle_rate_change_negative", func(d *drfThrottling) []string {
		var c drfsuite.Checks
		h := d.doubleView("3/sec")
		var w *httptest.ResponseRecorder
		for range 24 {
			w = get(h, drfAddr, "", "")
		}
		c.Equal("response.status_code", w.Code, 429)
		c.Equal("retry-after", w.Header().Get("Retry-After"), "60")
		// User3SecRateThrottle.rate = '1/sec': the view registered again,
		// on the same cache.
		h = d.doubleView("1/sec")
		for range 24 {
			w = get(h, drfAddr, "", "")
		}
		c.Equal("response.status_code at 1/sec", w.Code, 429)
		c.Equal("retry-after at 1/sec", w.Header().Get("Retry-After"), "60")
		return c
	}),
	drfThrottleItem("ThrottlingTests.test_seconds_fields", func(d *drfThrottling) []string {
		return d.headerSequence(d.mockView(), [2]any{0, ""}, [2]any{0, ""}, [2]any{0, ""}, [2]any{0, "1"})
	}),
	drfThrottleItem("ThrottlingTests.test_minutes_fields", func(d *drfThrottling) []string {
		return d.headerSequence(d.minuteView(), [2]any{0, ""}, [2]any{0, ""}, [2]any{0, ""}, [2]any{0, "60"})
	}),
	drfThrottleItem("ThrottlingTests.test_next_rate_remains_constant_if_followed", func(d *drfThrottling) []string {
		return d.headerSequence(d.minuteView(), [2]any{0, ""}, [2]any{20, ""}, [2]any{40, ""}, [2]any{60, ""}, [2]any{80, ""})
	}),
	drfThrottleItem("ThrottlingTests.test_non_time_throttle", func(d *drfThrottling) []string {
		called := false
		h := d.view("", nonTimeThrottle{&called})
		var c drfsuite.Checks
		c.Equal("called before a request", called, false)
		w := get(h, drfAddr, "", "")
		c.Equal("first response: Retry-After", w.Header().Values("Retry-After"), []string(nil))
		c.Equal("called", called, true)
		w = get(h, drfAddr, "", "")
		c.Equal("second response: Retry-After", w.Header().Values("Retry-After"), []string(nil))
		return c
	}),
	drfThrottleItem("ScopedRateThrottleTests.test_scoped_rate_throttle", func(d *drfThrottling) []string {
		d.rates = map[string]string{"x": "3/min", "y": "1/min"}
		x, y := d.view("x", d.scoped()), d.view("y", d.scoped())
		var c drfsuite.Checks
		step := 0
		expect := func(h http.Handler, want int, advance int64) {
			d.now += advance
			step++
			c.Equal(fmt.Sprintf("request %d: status_code", step), get(h, drfAddr, "", "").Code, want)
		}
		for range 2 {
			expect(x, 200, 0)
			expect(x, 200, 1)
			expect(x, 200, 1)
			expect(x, 429, 1)
			expect(y, 200, 1)
			expect(y, 429, 1)
			d.now += 55
		}
		return c
	}),
	drfThrottleItem("ScopedRateThrottleTests.test_unscoped_view_not_throttled", func(d *drfThrottling) []string {
		d.rates = map[string]string{"x": "3/min", "y": "1/min"}
		h := d.view("", d.scoped())
		var c drfsuite.Checks
		for i := range 10 {
			d.now++
			c.Equal(fmt.Sprintf("request %d: status_code", i+1), get(h, drfAddr, "", "").Code, 200)
		}
		return c
	}),
	drfThrottleItem("ScopedRateThrottleTests.test_get_cache_key_returns_correct_key_if_user_is_authenticated", func(d *drfThrottling) []string {
		d.rates = map[string]string{"user": "1000/day"}
		h := d.view("user", d.scoped())
		get(h, drfAddr, "test", "")
		var c drfsuite.Checks
		c.Equal("cache keys", d.cache.keys, []string{"throttle_user_" + strconv.FormatInt(d.users.pks["test"], 10)})
		return c
	}),
	drfThrottleItem("IdWithXffBasicTests.test_accepts_request_under_limit", func(d *drfThrottling) []string {
		d.rates = map[string]string{"test_limit": "1/day"}
		var c drfsuite.Checks
		c.Equal("response.status_code", get(d.view("test_limit", d.scoped()), "3.3.3.3:1234", "", "0.0.0.0, 1.1.1.1, 2.2.2.2").Code, 200)
		return c
	}),
	drfThrottleItem("IdWithXffBasicTests.test_denies_request_over_limit", func(d *drfThrottling) []string {
		d.rates = map[string]string{"test_limit": "1/day"}
		h := d.view("test_limit", d.scoped())
		get(h, "3.3.3.3:1234", "", "0.0.0.0, 1.1.1.1, 2.2.2.2")
		var c drfsuite.Checks
		c.Equal("response.status_code", get(h, "3.3.3.3:1234", "", "0.0.0.0, 1.1.1.1, 2.2.2.2").Code, 429)
		return c
	}),
	xffItem("XffSpoofingTests.test_xff_spoofing_doesnt_change_machine_id_with_one_app_proxy", 1, "4.4.4.4, 5.5.5.5, 2.2.2.2", 429),
	xffItem("XffSpoofingTests.test_xff_spoofing_doesnt_change_machine_id_with_two_app_proxies", 2, "4.4.4.4, 1.1.1.1, 2.2.2.2", 429),
	xffItem("XffUniqueMachinesTest.test_unique_clients_are_counted_independently_with_one_proxy", 1, "0.0.0.0, 1.1.1.1, 7.7.7.7", 200),
	xffItem("XffUniqueMachinesTest.test_unique_clients_are_counted_independently_with_two_proxies", 2, "0.0.0.0, 7.7.7.7, 2.2.2.2", 200),
	drfThrottleItem("SimpleRateThrottleTests.test_get_rate_raises_error_if_scope_is_missing", func(d *drfThrottling) []string {
		var c drfsuite.Checks
		c.Equal("a throttle without scope or rate registers", d.registers(throttling.RateThrottle{}), false)
		return c
	}),
	drfThrottleItem("SimpleRateThrottleTests.test_throttle_raises_error_if_rate_is_missing", func(d *drfThrottling) []string {
		var c drfsuite.Checks
		c.Equal("a throttle of a scope without a rate registers", d.registers(throttling.RateThrottle{Scope: "invalid scope"}), false)
		return c
	}),
	drfThrottleItem("SimpleRateThrottleTests.test_allow_request_returns_true_if_rate_is_none", func(d *drfThrottling) []string {
		// DEFAULT_THROTTLE_RATES' 'anon': None.
		d.rates = map[string]string{"anon": ""}
		var c drfsuite.Checks
		if !d.registers(throttling.RateThrottle{Scope: "anon"}) {
			c.Equal("a scope whose rate is None registers", false, true)
			return c
		}
		h := d.view("", throttling.RateThrottle{Scope: "anon"})
		for i := range 3 {
			c.Equal(fmt.Sprintf("request %d: status_code", i+1), get(h, drfAddr, "", "").Code, 200)
		}
		return c
	}),
	drfThrottleItem("SimpleRateThrottleTests.test_allow_request_returns_true_if_key_is_none", func(d *drfThrottling) []string {
		h := d.view("", throttling.RateThrottle{Scope: "anon", Rate: "1/min", Now: d.clock,
			Key: func(*request.Request, string) string { return "" }})
		var c drfsuite.Checks
		for i := range 3 {
			c.Equal(fmt.Sprintf("request %d: status_code", i+1), get(h, drfAddr, "", "").Code, 200)
		}
		c.Equal("cache keys", d.cache.keys, []string(nil))
		return c
	}),
	drfThrottleItem("SimpleRateThrottleTests.test_wait_returns_none_if_there_are_no_available_requests", func(d *drfThrottling) []string {
		// A history of three requests under a rate of one: wait() is
		// None, and the answer has no Retry-After.
		for range 3 {
			get(d.view("", throttling.RateThrottle{Scope: "anon", Rate: "3/min", Now: d.clock}), drfAddr, "", "")
		}
		w := get(d.view("", throttling.RateThrottle{Scope: "anon", Rate: "1/min", Now: d.clock}), drfAddr, "", "")
		var c drfsuite.Checks
		c.Equal("status_code", w.Code, 429)
		c.Equal("Retry-After", w.Header().Values("Retry-After"), []string(nil))
		return c
	}),
	drfThrottleItem("AnonRateThrottleTests.test_authenticated_user_not_affected", func(d *drfThrottling) []string {
		th := throttling.AnonRateThrottle()
		th.Rate = "1/day"
		h := d.view("", th)
		var c drfsuite.Checks
		for i := range 3 {
			c.Equal(fmt.Sprintf("request %d: status_code", i+1), get(h, drfAddr, "test", "").Code, 200)
		}
		c.Equal("cache keys", d.cache.keys, []string(nil))
		return c
	}),
	drfThrottleItem("AnonRateThrottleTests.test_get_cache_key_returns_correct_value", func(d *drfThrottling) []string {
		th := throttling.AnonRateThrottle()
		th.Rate = "1/day"
		// Request(HttpRequest()): no REMOTE_ADDR.
		get(d.view("", th), "", "", "")
		var c drfsuite.Checks
		c.Equal("cache keys", d.cache.keys, []string{"throttle_anon_None"})
		return c
	}),
}

func TestDRFThrottling(t *testing.T) {
	var methods []string
	for _, it := range drfThrottlingItems {
		methods = append(methods, it.Name)
	}
	np := map[string]string{
		"BaseThrottleTests.test_allow_request_raises_not_implemented_error": "Python's API: BaseThrottle's NotImplementedError; " +
			"framework.Throttle is an interface, which a throttle without Allow does not satisfy",
		"SimpleRateThrottleTests.test_get_cache_key_raises_not_implemented_error": "Python's API: get_cache_key's NotImplementedError; " +
			"a RateThrottle without Key is keyed as UserRateThrottle",
		"SimpleRateThrottleTests.test_parse_rate_returns_tuple_with_none_if_rate_not_provided": "Python's None: ParseRate reads a string; " +
			"a scope whose rate is \"\" is not throttled (test_allow_request_returns_true_if_rate_is_none)",
		"SimpleRateThrottleTests.test_wait_returns_correct_waiting_time_without_history": "DRF's internals: wait() of an empty history, " +
			"which no answer shows (Retry-After comes with a full window only)",
	}
	for m := range np {
		methods = append(methods, m)
	}
	django32 := "DRF 3.14's run is on Django 3.2, whose RequestFactory has no headers= (Django 4.2): its requests carry no " +
		"X-Forwarded-For, and DRF 3.14 reads it as DRF 3.18 does"
	drfsuite.Suite{
		File:        "tests/test_throttling.py",
		Methods:     methods,
		Items:       drfThrottlingItems,
		Differ:      map[string]string{},
		NotPortable: np,
		Only318: map[string]string{
			"XffUniqueMachinesTest.test_unique_clients_are_counted_independently_with_one_proxy":   django32,
			"XffUniqueMachinesTest.test_unique_clients_are_counted_independently_with_two_proxies": django32,
		},
	}.Run(t)
}

// TestThrottleKeysAsDRF: the histories are kept under DRF's cache keys,
// 'throttle_%(scope)s_%(ident)s': a user by primary key (not "user:" and
// the username), an anonymous client by address (not "ip:" and it), and
// a request without an address under "None", which is throttled like any
// other (it was let through unthrottled, its key being "").
func TestThrottleKeysAsDRF(t *testing.T) {
	d := newDRFThrottling(t, framework.DRF318)
	d.users.pks["alice"] = 42
	h := d.view("", d.userThrottle("1/day", "user"))
	get(h, "10.0.0.1:1234", "alice", "")
	get(h, "10.0.0.1:1234", "", "")
	if w := get(h, "", "", ""); w.Code != 200 {
		t.Errorf("first request without an address: %d", w.Code)
	}
	if w := get(h, "", "", ""); w.Code != 429 {
		t.Errorf("second request without an address: %d, want 429", w.Code)
	}
	want := []string{"throttle_user_42", "throttle_user_10.0.0.1", "throttle_user_None", "throttle_user_None"}
	if !slices.Equal(d.cache.keys, want) {
		t.Errorf("cache keys %q, want %q", d.cache.keys, want)
	}
}

// TestThrottleRateNoneIsUnthrottled: a scope whose rate in
// ThrottleRates is "" (DRF's DEFAULT_THROTTLE_RATES 'anon': None) lets
// every request through, where registration refused it; a scope missing
// from ThrottleRates is still refused.
func TestThrottleRateNoneIsUnthrottled(t *testing.T) {
	d := newDRFThrottling(t, framework.DRF318)
	d.rates = map[string]string{"anon": ""}
	h := d.view("", throttling.AnonRateThrottle(), throttling.ScopedRateThrottle{})
	for i := range 5 {
		if w := get(h, drfAddr, "", ""); w.Code != 200 {
			t.Fatalf("request %d: %d", i+1, w.Code)
		}
	}
	if d.registers(throttling.UserRateThrottle()) {
		t.Error("a throttle of a scope missing from ThrottleRates registered")
	}
}

// TestScopedRateThrottleClock: ScopedRateThrottle's Now is the clock of
// the throttle it resolves to (DRF's timer()), so a window passes when
// the clock says so.
func TestScopedRateThrottleClock(t *testing.T) {
	d := newDRFThrottling(t, framework.DRF318)
	d.rates = map[string]string{"x": "1/min"}
	h := d.view("x", d.scoped())
	codes := []int{get(h, drfAddr, "", "").Code, get(h, drfAddr, "", "").Code}
	d.now += 60
	codes = append(codes, get(h, drfAddr, "", "").Code)
	if !slices.Equal(codes, []int{200, 429, 200}) {
		t.Errorf("statuses %v, want [200 429 200]", codes)
	}
}
