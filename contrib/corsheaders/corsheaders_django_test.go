package corsheaders_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/corsheaders"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// level is a django-cors-headers the middleware answers as: Debian 12's
// 3.14 on Django 3.2 (Debian's python3-django-cors-headers), or Debian's
// 4.9 on Django 5.2 (laid out in conformance/reference/drf318 by
// scripts/install-references).
type level struct {
	name   string
	compat compat.Level
	django string // the Django series, "3.2" or "5.2"
	major  string // the django-cors-headers series, "3." or "4."
}

var levels = []level{
	{"corsheaders 3.14", compat.DRF314, "3.2", "3.14."},
	{"corsheaders 4", compat.Current, "5.2", "4."},
}

// variant is one set of settings, with the requests sent under it.
type variant struct {
	name string
	s    corsheaders.Settings
	// signal connects a check_request_enabled handler that allows requests
	// with X-Cors-Ok: 1 (CheckRequestEnabled here).
	signal bool
	// current: only at django-cors-headers 4 (AllowPrivateNetwork).
	current bool
}

func markedOK(r *http.Request) bool { return r.Header.Get("X-Cors-Ok") == "1" }

var variants = []variant{
	{name: "no settings"},
	{name: "allowed origins", s: corsheaders.Settings{
		AllowedOrigins: []string{"https://example.com", "http://localhost:8000", "null", "file://"}}},
	{name: "regexes on /api/", s: corsheaders.Settings{
		AllowedOriginRegexes: []string{`^https://\w+\.example\.org$`, `http://localhost:\d+`}, URLsRegex: `^/api/`}},
	{name: "credentials", s: corsheaders.Settings{
		AllowedOrigins: []string{"https://example.com"}, AllowCredentials: true,
		ExposeHeaders: []string{"X-Total-Count", "ETag"}, PreflightMaxAge: 600}},
	{name: "all origins", s: corsheaders.Settings{AllowAllOrigins: true}},
	{name: "all origins with credentials", s: corsheaders.Settings{AllowAllOrigins: true, AllowCredentials: true}},
	{name: "own methods and headers, no max age", s: corsheaders.Settings{
		AllowedOrigins: []string{"https://example.com"}, AllowMethods: []string{"GET", "POST"},
		AllowHeaders: []string{}, PreflightMaxAge: -1}},
	{name: "signal", s: corsheaders.Settings{URLsRegex: `^/api/`, CheckRequestEnabled: markedOK}, signal: true},
	{name: "private network", s: corsheaders.Settings{
		AllowedOrigins: []string{"https://example.com"}, AllowPrivateNetwork: true}, current: true},
}

// exchange is one request, as both sides send it.
type exchange struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
}

// answer is what the comparison reads of an answer.
type answer struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// exchanges are the requests of every variant: each path, with each
// origin, as a simple request, a preflight and a plain OPTIONS.
func exchanges() []exchange {
	origins := []string{"", "https://example.com", "https://evil.com", "null", "file://", "https://app.example.org",
		"http://localhost:8000", "http://localhost:9", "HTTPS://example.com", "https://EXAMPLE.com",
		"https://example.com/", "http://[::1", "http://[::1]:8000", "http://[1.2.3.4]", "example.com"}
	var out []exchange
	for _, path := range []string{"/api/hello/", "/api/vary/", "/api/secret/", "/other/"} {
		for _, o := range origins {
			kinds := []exchange{
				{"GET", path, map[string]string{}},
				{"POST", path, map[string]string{"X-Cors-Ok": "1"}},
				{"OPTIONS", path, map[string]string{"Access-Control-Request-Method": "PUT"}},
				{"OPTIONS", path, map[string]string{}},
				{"options", path, map[string]string{"Access-Control-Request-Method": ""}},
				{"OPTIONS", path, map[string]string{"Access-Control-Request-Method": "GET",
					"Access-Control-Request-Private-Network": "true", "X-Cors-Ok": "1"}},
			}
			for _, k := range kinds {
				if o != "" {
					k.Headers["Origin"] = o
				}
				out = append(out, k)
			}
		}
	}
	return out
}

// djangoSettings is s in django-cors-headers' names.
func djangoSettings(s corsheaders.Settings) map[string]any {
	m := map[string]any{}
	set := func(name string, v any, ok bool) {
		if ok {
			m[name] = v
		}
	}
	set("CORS_ALLOWED_ORIGINS", s.AllowedOrigins, s.AllowedOrigins != nil)
	set("CORS_ALLOWED_ORIGIN_REGEXES", s.AllowedOriginRegexes, s.AllowedOriginRegexes != nil)
	set("CORS_ALLOW_ALL_ORIGINS", true, s.AllowAllOrigins)
	set("CORS_URLS_REGEX", s.URLsRegex, s.URLsRegex != "")
	set("CORS_ALLOW_METHODS", s.AllowMethods, s.AllowMethods != nil)
	set("CORS_ALLOW_HEADERS", s.AllowHeaders, s.AllowHeaders != nil)
	set("CORS_EXPOSE_HEADERS", s.ExposeHeaders, s.ExposeHeaders != nil)
	maxAge := s.PreflightMaxAge
	if maxAge == -1 { // none
		maxAge = 0
	}
	set("CORS_PREFLIGHT_MAX_AGE", maxAge, s.PreflightMaxAge != 0)
	set("CORS_ALLOW_CREDENTIALS", true, s.AllowCredentials)
	set("CORS_ALLOW_PRIVATE_NETWORK", true, s.AllowPrivateNetwork)
	return m
}

// views are the Go twins of cors_side.py's views.
func views() http.Handler {
	mux := http.NewServeMux()
	text := func(body string, vary bool) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			if vary {
				w.Header().Set("Vary", "Accept")
			}
			_, _ = io.WriteString(w, body)
		}
	}
	mux.Handle("/api/hello/", text("hello", false))
	mux.Handle("/other/", text("hello", false))
	mux.Handle("/api/vary/", text("vary", true))
	mux.HandleFunc("/api/secret/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("WWW-Authenticate", "Token")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"detail":"Authentication credentials were not provided."}`)
	})
	return mux
}

// compared reports whether the comparison reads the header name: every
// CORS header, Vary, and what tells a preflight's answer from the view's.
func compared(name string) bool {
	return strings.HasPrefix(name, "Access-Control-") || name == "Vary" || name == "Content-Type" ||
		name == "Content-Length" || name == "Www-Authenticate"
}

// badSettings are settings django-cors-headers' system checks refuse.
var badSettings = []corsheaders.Settings{
	{AllowedOrigins: []string{"example.com"}},
	{AllowedOrigins: []string{"https://example.com/"}},
	{AllowedOrigins: []string{"https://example.com/api?x=1#top", "localhost:8000"}},
	{PreflightMaxAge: -5},
}

// TestAgainstDjangoCorsHeaders sends the same requests to Django with
// django-cors-headers' CorsMiddleware (testdata/cors_side.py, Django's
// test Client) and to the Go middleware in front of the same views, at
// both django-cors-headers levels, and compares the status, the body
// and every CORS header, Vary, Content-Type and Content-Length; and
// checks that New refuses, with the same message, the settings the
// package's system checks refuse.
func TestAgainstDjangoCorsHeaders(t *testing.T) {
	for _, l := range levels {
		t.Run(l.name, func(t *testing.T) {
			var vs []variant
			for _, v := range variants {
				if !v.current || l.compat == compat.Current {
					vs = append(vs, v)
				}
			}
			reqs := exchanges()
			type pyVariant struct {
				Settings map[string]any `json:"settings"`
				Signal   bool           `json:"signal"`
				Requests []exchange     `json:"requests"`
			}
			in := struct {
				Variants []pyVariant      `json:"variants"`
				Checks   []map[string]any `json:"checks"`
			}{}
			for _, v := range vs {
				in.Variants = append(in.Variants, pyVariant{djangoSettings(v.s), v.signal, reqs})
			}
			for _, s := range badSettings {
				in.Checks = append(in.Checks, djangoSettings(s))
			}
			var out struct {
				Versions map[string]string `json:"versions"`
				Answers  [][]answer        `json:"answers"`
				Checks   [][]struct {
					ID  string `json:"id"`
					Msg string `json:"msg"`
				} `json:"checks"`
			}
			runDjango(t, l, in, &out)
			if !strings.HasPrefix(out.Versions["corsheaders"], l.major) || !strings.HasPrefix(out.Versions["django"], l.django) {
				t.Fatalf("the reference is %v, want django-cors-headers %s* on Django %s", out.Versions, l.major, l.django)
			}
			t.Logf("Django %s, django-cors-headers %s: %d variants of %d requests",
				out.Versions["django"], out.Versions["corsheaders"], len(vs), len(reqs))
			for i, v := range vs {
				v.s.Compatibility = l.compat
				c, err := corsheaders.New(v.s)
				if err != nil {
					t.Fatalf("%s: %v", v.name, err)
				}
				srv := httptest.NewServer(c.Middleware(views()))
				for j, req := range reqs {
					got, want := goAnswer(t, srv, req), out.Answers[i][j]
					wantHeaders := map[string]string{}
					for k, val := range want.Headers {
						if k = http.CanonicalHeaderKey(k); compared(k) {
							wantHeaders[k] = val
						}
					}
					if _, ok := wantHeaders["Content-Length"]; !ok {
						delete(got.Headers, "Content-Length")
					}
					if got.Status != want.Status || got.Body != want.Body || !equalHeaders(got.Headers, wantHeaders) {
						t.Errorf("%s: %s %s %v:\n got %d %q %v\nwant %d %q %v", v.name, req.Method, req.Path, req.Headers,
							got.Status, got.Body, got.Headers, want.Status, want.Body, wantHeaders)
					}
				}
				srv.Close()
			}
			for i, s := range badSettings {
				s.Compatibility = l.compat
				_, err := corsheaders.New(s)
				if len(out.Checks[i]) == 0 || err == nil {
					t.Fatalf("settings %v: checks %v, New's error %v; want both to refuse", djangoSettings(s), out.Checks[i], err)
				}
				for _, e := range out.Checks[i] {
					if msg := strings.TrimSuffix(e.Msg, "."); !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), e.ID) {
						t.Errorf("settings %v: New's error %q lacks the check's %s %q", djangoSettings(s), err, e.ID, msg)
					}
				}
			}
		})
	}
}

// goAnswer sends req to srv.
func goAnswer(t *testing.T, srv *httptest.Server, req exchange) answer {
	t.Helper()
	r, err := http.NewRequest(req.Method, srv.URL+req.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range req.Headers {
		r.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{Status: resp.StatusCode, Headers: map[string]string{}, Body: string(body)}
	for k, vs := range resp.Header {
		if compared(k) {
			a.Headers[k] = strings.Join(vs, ", ")
		}
	}
	return a
}

func equalHeaders(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// runDjango runs testdata/cors_side.py at level l (pyrun.At) with the
// cases in and decodes its output into out. It skips without a
// /usr/bin/python3 that has Django and django-cors-headers at l (Debian's
// python3-django-cors-headers, and scripts/install-references for
// drf318/), and fails then when CI_REQUIRE_DJANGO is set.
func runDjango(t *testing.T, l level, in, out any) {
	t.Helper()
	pyrun.Need(t, pyrun.At(l.compat), "corsheaders")
	b := pyrun.Exec(t, pyrun.At(l.compat), in, filepath.Join("testdata", "cors_side.py"))
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("cors_side.py's output: %v\n%s", err, b)
	}
}
