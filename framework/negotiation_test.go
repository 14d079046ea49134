package framework_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/cache"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
)

type htmlRenderer struct{}

func (htmlRenderer) MediaType() string { return "text/html" }
func (htmlRenderer) Format() string    { return "api" }
func (htmlRenderer) Charset() string   { return "utf-8" }
func (htmlRenderer) Render(data any, c *framework.RenderContext) ([]byte, error) {
	return []byte(fmt.Sprintf("<p>%v</p>", data)), nil
}

func TestNegotiation(t *testing.T) {
	echo := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]string{"a": "<b>"}), nil
	}
	jsonOnly := apitest.View(framework.View{Get: echo})
	both := apitest.View(framework.View{Renderers: framework.Renderers(framework.JSONRenderer{}, htmlRenderer{}), Get: echo})
	htmlFirst := apitest.View(framework.View{Renderers: framework.Renderers(htmlRenderer{}, framework.JSONRenderer{}), Get: echo})
	cases := []struct {
		view        http.Handler
		path        string
		accept      string
		status      int
		contentType string
		body        string
	}{
		{jsonOnly, "/", "", 200, "application/json", `{"a":"<b>"}`},
		{jsonOnly, "/", "*/*", 200, "application/json", `{"a":"<b>"}`},
		{jsonOnly, "/", "application/json; version=v2", 200, "application/json", `{"a":"<b>"}`},
		{jsonOnly, "/", "text/html", 406, "application/json", `{"detail":"Could not satisfy the request Accept header."}`},
		{jsonOnly, "/?format=api", "", 404, "application/json", `{"detail":"Not found."}`},
		{jsonOnly, "/", "application/json; indent=2", 200, "application/json", "{\n  \"a\": \"<b>\"\n}"},
		{both, "/", "text/html", 200, "text/html; charset=utf-8", "<p>map[a:<b>]</p>"},
		{both, "/", "text/html;q=0.9, application/json", 200, "application/json", `{"a":"<b>"}`},
		{both, "/", "*/*", 200, "application/json", `{"a":"<b>"}`},
		{both, "/?format=api", "application/json", 406, "application/json", `{"detail":"Could not satisfy the request Accept header."}`},
		{both, "/?format=api", "", 200, "text/html; charset=utf-8", "<p>map[a:<b>]</p>"},
		{htmlFirst, "/", "", 200, "text/html; charset=utf-8", "<p>map[a:<b>]</p>"},
		{htmlFirst, "/", " */* ", 200, "text/html; charset=utf-8", "<p>map[a:<b>]</p>"},
		{htmlFirst, "/?format=json", "*/*", 200, "application/json", `{"a":"<b>"}`},
		{htmlFirst, "/", "*/*;q=0.5, application/json", 200, "application/json", `{"a":"<b>"}`},
	}
	for _, c := range cases {
		req := httptest.NewRequest("GET", c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		w := httptest.NewRecorder()
		c.view.ServeHTTP(w, req)
		if w.Code != c.status || w.Header().Get("Content-Type") != c.contentType || w.Body.String() != c.body {
			t.Errorf("%s Accept %q: %d %q %q", c.path, c.accept, w.Code, w.Header().Get("Content-Type"), w.Body.String())
		}
	}
	w := httptest.NewRecorder()
	both.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Header().Get("Vary") != "Accept" {
		t.Errorf("Vary %q", w.Header().Get("Vary"))
	}
}

func TestParsers(t *testing.T) {
	v := apitest.View(framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		d, err := r.Data()
		if err != nil {
			return nil, err
		}
		return framework.OK(map[string]any{"data": d}), nil
	}}, framework.Settings{MaxBodyBytes: 64})
	cases := []struct {
		ct, body string
		status   int
		want     string
	}{
		{"application/json", `{"a": 1}`, 200, `{"data":{"a":1}}`},
		{"application/json", `{"a": `, 400, `{"detail":"JSON parse error - Expecting value: line 1 column 7 (char 6)"}`},
		{"application/json", `{} {}`, 400, ``},
		{"application/x-www-form-urlencoded", `a=1&a=2&b=x`, 200, `{"data":{"a":"2","b":"x"}}`},
		{"multipart/form-data; boundary=XX", "--XX\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XX--\r\n", 200, `{"data":{"a":"v"}}`},
		{"multipart/form-data", "x", 400, ``},
		{"text/plain", `hi`, 415, `{"detail":"Unsupported media type \"text/plain\" in request."}`},
		{"application/json", `{"a": "` + strings.Repeat("x", 100) + `"}`, 413, `{"detail":"Request body is too large."}`},
		{"", ``, 200, `{"data":null}`},
	}
	for _, c := range cases {
		req := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		if c.ct != "" {
			req.Header.Set("Content-Type", c.ct)
		}
		w := httptest.NewRecorder()
		v.ServeHTTP(w, req)
		if w.Code != c.status || (c.want != "" && w.Body.String() != c.want) {
			t.Errorf("%s %q: %d %s", c.ct, c.body, w.Code, w.Body.String())
		}
	}
}

func TestThrottles(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	anon := throttling.AnonRateThrottle()
	anon.Now = func() time.Time { return now }
	v := apitest.View(framework.View{
		Throttles: framework.Throttles(anon),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]bool{"ok": true}), nil
		},
	}, framework.Settings{ThrottleRates: map[string]string{"anon": "3/minute"}, ThrottleCache: &cache.Memory{}})
	for i := 1; i <= 4; i++ {
		w := httptest.NewRecorder()
		v.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		if i < 4 && w.Code != 200 {
			t.Fatalf("call %d: %d", i, w.Code)
		}
		if i == 4 && (w.Code != 429 || w.Header().Get("Retry-After") != "60" ||
			w.Body.String() != `{"detail":"Request was throttled. Expected available in 60 seconds."}`) {
			t.Fatalf("call 4: %d %q %s", w.Code, w.Header().Get("Retry-After"), w.Body.String())
		}
	}
	now = now.Add(time.Minute)
	w := httptest.NewRecorder()
	v.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Code != 200 {
		t.Fatalf("after a minute: %d", w.Code)
	}
}

func TestThrottleCountsUnderConcurrency(t *testing.T) {
	v := apitest.View(framework.View{
		Throttles: framework.Throttles(throttling.AnonRateThrottle()),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(nil), nil
		},
	}, framework.Settings{ThrottleRates: map[string]string{"anon": "10/hour"}, ThrottleCache: &cache.Memory{}})
	codes := make(chan int, 50)
	for range 50 {
		go func() {
			w := httptest.NewRecorder()
			v.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
			codes <- w.Code
		}()
	}
	ok := 0
	for range 50 {
		if <-codes == 200 {
			ok++
		}
	}
	if ok != 10 {
		t.Fatalf("%d requests allowed, want 10", ok)
	}
}

type failingBody struct{}

func (failingBody) Read([]byte) (int, error) { return 0, errors.New("i/o timeout") }

// A body that cannot be read (a client cut off by the read timeout) is a
// 400 for every parser, never a 500.
func TestUnreadableBodyIs400(t *testing.T) {
	v := apitest.View(framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		_, err := r.Data()
		return framework.OK(nil), err
	}})
	for _, ct := range []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=X"} {
		req := httptest.NewRequest("POST", "/", io.NopCloser(failingBody{}))
		req.ContentLength = -1
		req.Header.Set("Content-Type", ct)
		w := httptest.NewRecorder()
		v.ServeHTTP(w, req)
		if w.Code != 400 {
			t.Errorf("%s: %d %s", ct, w.Code, w.Body.String())
		}
	}
}

// TestThrottleCacheDownFailsOpen: with the shared cache unreachable (a
// Redis URL where no server listens), throttled views still answer, and
// the failure is logged once: the calls of the cache's cool-down do not
// try it.
func TestThrottleCacheDownFailsOpen(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	down, err := cache.OpenRedis("redis://" + addr + "/0")
	if err != nil {
		t.Fatal(err)
	}
	defer down.Close()
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(prev)
	v := apitest.View(framework.View{
		Throttles: framework.Throttles(throttling.AnonRateThrottle()),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]bool{"ok": true}), nil
		},
	}, framework.Settings{ThrottleRates: map[string]string{"anon": "1/minute"}, ThrottleCache: down})
	for i := 1; i <= 3; i++ {
		w := httptest.NewRecorder()
		v.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		if w.Code != 200 || w.Body.String() != `{"ok":true}` {
			t.Fatalf("call %d with the cache down: %d %s", i, w.Code, w.Body.String())
		}
	}
	if strings.Count(logs.String(), "throttle cache unavailable") != 1 || !strings.Contains(logs.String(), "scope=anon") {
		t.Errorf("the failure is not logged once:\n%s", logs.String())
	}
}

// readsCookie authenticates no one, after reading the session cookie.
type readsCookie struct{}

func (readsCookie) Authenticate(r *request.Request) (request.User, any, error) {
	r.Vary("Cookie")
	return nil, nil, nil
}

// TestVaryIsOneLine: the answer's Vary names, Accept (a choice of
// renderers) and what the policies read come on one line, each once, as
// Django's patch_vary_headers leaves them ("Vary: Accept, Cookie").
func TestVaryIsOneLine(t *testing.T) {
	for _, c := range []struct {
		own       []string
		renderers []framework.Renderer
		want      string
	}{
		{nil, []framework.Renderer{framework.JSONRenderer{}, htmlRenderer{}}, "Accept, Cookie"},
		{nil, []framework.Renderer{framework.JSONRenderer{}}, "Cookie"},
		{[]string{"Origin"}, []framework.Renderer{framework.JSONRenderer{}, htmlRenderer{}}, "Origin, Accept, Cookie"},
		{[]string{"accept, cookie"}, []framework.Renderer{framework.JSONRenderer{}, htmlRenderer{}}, "accept, cookie"},
		{[]string{"Origin", " X-A ,X-B"}, []framework.Renderer{framework.JSONRenderer{}}, "Origin, X-A, X-B, Cookie"},
		{[]string{"*"}, []framework.Renderer{framework.JSONRenderer{}, htmlRenderer{}}, "*"},
	} {
		view := apitest.View(framework.View{
			Authentication: framework.Authenticators(readsCookie{}),
			Renderers:      framework.Renderers(c.renderers...),
			Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
				_ = r.User()
				return &framework.Response{Status: 200, Data: "x", Header: http.Header{"Vary": c.own}}, nil
			},
		})
		w := httptest.NewRecorder()
		view.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		if got := w.Header().Values("Vary"); len(got) != 1 || got[0] != c.want {
			t.Errorf("own %q: Vary %q, want %q", c.own, got, c.want)
		}
	}
}
