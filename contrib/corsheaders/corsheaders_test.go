package corsheaders_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/corsheaders"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/request"
)

func mustNew(t testing.TB, s corsheaders.Settings) *corsheaders.CORS {
	t.Helper()
	c, err := corsheaders.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func send(t *testing.T, srv *httptest.Server, method, path string, headers ...string) (*http.Response, string) {
	t.Helper()
	r, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		r.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// TestPreflightBeforeAuthentication: around an API whose view needs an
// authenticated user, a preflight is answered 200 without reaching the
// view's authentication, and the view's 401 carries the CORS headers,
// Vary: origin after the view's own Vary.
func TestPreflightBeforeAuthentication(t *testing.T) {
	reached := 0
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/secret/", framework.View{
		Authentication: framework.Authenticators(authentication.Basic{Users: authentication.PasswordCheckerFunc(
			func(context.Context, string, string) (request.User, error) {
				reached++
				return nil, nil
			})}),
		Permissions: framework.Permissions(framework.IsAuthenticated{}),
		// Two renderers: the view's answers vary on Accept.
		Renderers: framework.Renderers(framework.JSONRenderer{}, framework.StaticHTMLRenderer{}),
		Get: func(*framework.View, *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]any{"secret": 1}), nil
		},
	})
	c := mustNew(t, corsheaders.Settings{AllowedOrigins: []string{"https://app.example.com"}, AllowCredentials: true})
	srv := httptest.NewServer(c.Middleware(api))
	defer srv.Close()

	resp, body := send(t, srv, "OPTIONS", "/secret/", "Origin: https://app.example.com",
		"Access-Control-Request-Method: GET", "Access-Control-Request-Headers: authorization",
		"Authorization: Basic YTpi")
	if resp.StatusCode != 200 || body != "" || reached != 0 {
		t.Fatalf("preflight: %d %q, authentication ran %d times; want 200, empty, never", resp.StatusCode, body, reached)
	}
	for k, v := range map[string]string{
		"Access-Control-Allow-Origin":      "https://app.example.com",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Allow-Methods":     "DELETE, GET, OPTIONS, PATCH, POST, PUT",
		"Access-Control-Allow-Headers":     "accept, authorization, content-type, user-agent, x-csrftoken, x-requested-with",
		"Access-Control-Max-Age":           "86400",
		"Content-Length":                   "0",
		"Vary":                             "origin",
	} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("preflight %s: %q, want %q", k, got, v)
		}
	}

	resp, body = send(t, srv, "GET", "/secret/", "Origin: https://app.example.com", "Authorization: Basic YTpi")
	if resp.StatusCode != 401 || reached != 1 || !strings.Contains(body, "Invalid username/password.") {
		t.Fatalf("GET: %d %q, authentication ran %d times; want DRF's 401, once", resp.StatusCode, body, reached)
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example.com" {
		t.Errorf("GET's Access-Control-Allow-Origin %q", got)
	}
	if got := resp.Header.Values("Vary"); len(got) != 1 || got[0] != "Accept, origin" {
		t.Errorf("GET's Vary %q, want the view's Accept then origin, on one line", got)
	}
}

// TestAnswerWrittenLate: the headers reach answers whose view writes no
// header itself, or only flushes.
func TestAnswerWrittenLate(t *testing.T) {
	c := mustNew(t, corsheaders.Settings{AllowAllOrigins: true})
	for name, view := range map[string]http.HandlerFunc{
		"writes nothing": func(http.ResponseWriter, *http.Request) {},
		"flushes":        func(w http.ResponseWriter, _ *http.Request) { w.(http.Flusher).Flush() },
		"flushes through ResponseController": func(w http.ResponseWriter, _ *http.Request) {
			_ = http.NewResponseController(w).Flush()
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(c.Middleware(view))
			defer srv.Close()
			resp, _ := send(t, srv, "GET", "/", "Origin: https://a.example")
			if resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("Vary") != "origin" {
				t.Errorf("headers %v, want Access-Control-Allow-Origin * and Vary origin", resp.Header)
			}
		})
	}
}

// TestNewRefuses: settings that could not work fail at setup, naming the
// setting.
func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		s    corsheaders.Settings
		want string
	}{
		{corsheaders.Settings{AllowedOrigins: []string{"https://example.com", "example.com"}},
			"Origin 'example.com' in CORS_ALLOWED_ORIGINS is missing scheme or netloc (corsheaders.E013)"},
		{corsheaders.Settings{AllowedOrigins: []string{"https://[::1"}},
			"Origin 'https://[::1' in CORS_ALLOWED_ORIGINS is not a URL: Invalid IPv6 URL"},
		{corsheaders.Settings{AllowedOrigins: []string{"https://[1.2.3.4]"}},
			"Origin 'https://[1.2.3.4]' in CORS_ALLOWED_ORIGINS is not a URL: An IPv4 address cannot be in brackets"},
		{corsheaders.Settings{AllowedOriginRegexes: []string{`^https://(a`}},
			"CORS_ALLOWED_ORIGIN_REGEXES: \"^https://(a\" does not compile"},
		{corsheaders.Settings{URLsRegex: `^/api/(?P<x`}, "CORS_URLS_REGEX: \"^/api/(?P<x\" does not compile"},
		{corsheaders.Settings{PreflightMaxAge: -2}, "CORS_PREFLIGHT_MAX_AGE should be an integer greater than or equal to zero"},
		{corsheaders.Settings{AllowPrivateNetwork: true, Compatibility: compat.DRF314}, "CORS_ALLOW_PRIVATE_NETWORK came in django-cors-headers 4"},
	} {
		_, err := corsheaders.New(c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v): %v, want %q", c.s, err, c.want)
		}
	}
	for _, ok := range []string{"null", "file://", "http://[::1]:8000", "https://[v1.x]", "https://user@example.com:8443"} {
		if _, err := corsheaders.New(corsheaders.Settings{AllowedOrigins: []string{ok}}); err != nil {
			t.Errorf("New with origin %q: %v", ok, err)
		}
	}
}

// headerOnly is a ResponseWriter that keeps only the header, for the
// benchmark to count the middleware's allocations alone.
type headerOnly struct{ h http.Header }

func (w *headerOnly) Header() http.Header         { return w.h }
func (w *headerOnly) Write(b []byte) (int, error) { return len(b), nil }
func (w *headerOnly) WriteHeader(int)             {}

// BenchmarkMiddleware measures a request without Origin (answered with
// Vary: origin) and an allowed simple CORS request, through the
// middleware to a view that writes its header: both allocate nothing.
func BenchmarkMiddleware(b *testing.B) {
	c := mustNew(b, corsheaders.Settings{AllowedOrigins: []string{"https://example.com", "https://app.example.com"},
		AllowCredentials: true, ExposeHeaders: []string{"X-Total-Count"}})
	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }))
	for _, bc := range []struct{ name, origin string }{{"no origin", ""}, {"simple CORS", "https://app.example.com"}} {
		b.Run(bc.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/api/books/", nil)
			if bc.origin != "" {
				r.Header.Set("Origin", bc.origin)
			}
			w := &headerOnly{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}
			if bc.origin != "" && w.h.Get("Access-Control-Allow-Origin") != bc.origin {
				b.Fatalf("answer's headers %v", w.h)
			}
		})
	}
}
