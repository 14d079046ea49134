package sessions_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/contrib/sessions/csrf"
	"github.com/go-drf/drf/framework/compat"
)

// csrfPage is the page Django renders for one refusal, as
// django.views.csrf.csrf_failure(request, reason) answers with DEBUG=False
// (testdata/csrf_403/djangoVV-CASE.html, written by Django 3.2.25 and
// 5.2.19; the no-cookie pages are byte for byte what both references
// answer to a login POST without a CSRF cookie).
func csrfPage(t *testing.T, django, kind string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "csrf_403", "django"+django+"-"+kind+".html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A form refused by the CSRF protection gets Django's own 403 page, byte
// for byte: Django 5.2's by default, Django 3.2's at DRF 3.14 level; the
// reason is not shown (DEBUG=False), except that a missing cookie and a
// missing Referer each add Django's explanation.
func TestCSRFFailurePageIsDjangos(t *testing.T) {
	for _, level := range []struct {
		compat              compat.Level
		django, contentType string
	}{
		{compat: compat.Current, django: "52", contentType: "text/html; charset=utf-8"},
		{compat: compat.DRF314, django: "32", contentType: "text/html"},
	} {
		t.Run("django"+level.django, func(t *testing.T) {
			f := newFixture(t, func(m *sessions.Manager) { m.Compatibility = level.compat })
			_, cookie := f.loginPage(t, "/api-auth/login/")
			secure := newFixture(t, func(m *sessions.Manager) {
				m.Compatibility = level.compat
				m.CSRF = &csrf.Protection{Compatibility: level.compat, IsSecure: func(*http.Request) bool { return true }}
			})
			for _, c := range []struct {
				name, kind string
				send       func() page
			}{
				{"no cookie", "nocookie", func() page { return f.send(t, "POST", "/api-auth/login/", "username=alice") }},
				{"no token", "other", func() page { return f.send(t, "POST", "/api-auth/login/", "username=alice", cookie) }},
				{"a wrong token", "other", func() page {
					wrong := "x" // another character than the cookie's own at 31
					if cookie.Value[31] == 'x' {
						wrong = "y"
					}
					return f.send(t, "POST", "/api-auth/login/", "username=alice&csrfmiddlewaretoken="+cookie.Value[:31]+wrong+cookie.Value[32:], cookie)
				}},
				{"HTTPS without a Referer", "noreferer", func() page { return secure.send(t, "POST", "/api-auth/login/", "username=alice") }},
			} {
				p := c.send()
				want := csrfPage(t, level.django, c.kind)
				if p.status != http.StatusForbidden || p.body != want {
					t.Errorf("%s: %d\n%s\nwant 403\n%s", c.name, p.status, p.body, want)
				}
				if ct, n := p.header.Get("Content-Type"), p.header.Get("Content-Length"); ct != level.contentType || n != strconv.Itoa(len(want)) {
					t.Errorf("%s: Content-Type %q, Content-Length %s; want %q, %d", c.name, ct, n, level.contentType, len(want))
				}
			}
		})
	}
}
