package framework_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
)

// djangoBadRequest is the page Django answers a DisallowedHost with.
const djangoBadRequest = "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Bad Request (400)</title>\n</head>\n<body>\n  <h1>Bad Request (400)</h1><p></p>\n</body>\n</html>\n"

// TestAllowedHosts: with AllowedHosts set, a request for another host is
// answered with Django's 400 page before any route runs (a view, a plain
// page, a path no route matches), and Django's message is logged; hosts
// match as Django's validate_host matches them.
func TestAllowedHosts(t *testing.T) {
	logs := &lockedLog{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, nil)))
	defer slog.SetDefault(prev)
	ran := false
	api := framework.NewAPI(nil, framework.Settings{AllowedHosts: []string{"API.example.com", ".Example.org", "[::1]", "127.0.0.1"}})
	api.Handle("/view/", framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		ran = true
		return framework.OK(map[string]string{"ok": "yes"}), nil
	}})
	api.HandleHTTP("/page/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ran = true }))
	for _, c := range []struct {
		host string
		ok   bool
		log  string
	}{
		{"api.example.com", true, ""},
		{"API.EXAMPLE.COM:8000", true, ""},
		{"api.example.com.", true, ""},
		{"example.org", true, ""},
		{"deep.sub.example.org:443", true, ""},
		{"[::1]:8000", true, ""},
		{"127.0.0.1:8000", true, ""},
		{"evil.example", false, `Invalid HTTP_HOST header: 'evil.example'. You may need to add 'evil.example' to ALLOWED_HOSTS.`},
		{"Evil.Example:8000", false, `Invalid HTTP_HOST header: 'Evil.Example:8000'. You may need to add 'evil.example' to ALLOWED_HOSTS.`},
		{"example.com", false, "You may need to add 'example.com'"},
		{"notexample.org", false, "You may need to add 'notexample.org'"},
		{"example.org.evil", false, "You may need to add 'example.org.evil'"},
		{"127.0.0.2", false, "You may need to add '127.0.0.2'"},
		{"bad_host", false, `Invalid HTTP_HOST header: 'bad_host'. The domain name provided is not valid according to RFC 1034/1035.`},
		{"api.example.com:port", false, "The domain name provided is not valid according to RFC 1034/1035."},
	} {
		for _, path := range []string{"/view/", "/page/", "/nowhere/"} {
			ran = false
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Host = c.host
			w := httptest.NewRecorder()
			api.ServeHTTP(w, req)
			if c.ok {
				if w.Code == http.StatusBadRequest {
					t.Errorf("%s %s: refused", c.host, path)
				}
				continue
			}
			if w.Code != http.StatusBadRequest || w.Body.String() != djangoBadRequest || ran {
				t.Errorf("%s %s: %d %q (handler ran: %v), want Django's 400 page", c.host, path, w.Code, w.Body, ran)
			}
			if !strings.Contains(logs.String(), c.log) {
				t.Errorf("%s: log lacks %q:\n%s", c.host, c.log, logs.String())
			}
		}
	}
}

// TestAllowedHostsWildcardAndForwardedHost: "*" allows any valid host
// but not an invalid one; behind a trusted proxy the forwarded host, the
// one absolute links would name, is the one checked; no AllowedHosts
// serves every host.
func TestAllowedHostsWildcardAndForwardedHost(t *testing.T) {
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer slog.SetDefault(prev)
	ok := framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		return framework.OK(nil), nil
	}}
	serve := func(s framework.Settings, host string, header ...string) int {
		api := framework.NewAPI(nil, s)
		api.Handle("/", ok)
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Host = host
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		api.ServeHTTP(w, req)
		return w.Code
	}
	star := framework.Settings{AllowedHosts: []string{"*"}}
	if code := serve(star, "anything.example"); code != 200 {
		t.Errorf("* refused a valid host: %d", code)
	}
	if code := serve(star, "bad_host"); code != 400 {
		t.Errorf("* allowed an invalid host: %d", code)
	}
	trusted := framework.Settings{AllowedHosts: []string{"api.example.com"}, TrustForwardedHeaders: true}
	if code := serve(trusted, "api.example.com", "X-Forwarded-Host", "evil.example"); code != 400 {
		t.Errorf("trusted X-Forwarded-Host evil.example: %d", code)
	}
	if code := serve(trusted, "internal:8000", "X-Forwarded-Host", "api.example.com"); code != 200 {
		t.Errorf("trusted X-Forwarded-Host api.example.com: %d", code)
	}
	untrusted := framework.Settings{AllowedHosts: []string{"api.example.com"}}
	if code := serve(untrusted, "api.example.com", "X-Forwarded-Host", "evil.example"); code != 200 {
		t.Errorf("untrusted X-Forwarded-Host is ignored: %d", code)
	}
	if code := serve(framework.Settings{}, "evil.example"); code != 200 {
		t.Errorf("no AllowedHosts: %d", code)
	}
}
