package sessions_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework/store"
)

// deleted is the line of Django's SessionMiddleware deleting the cookie
// (the reference's answer, byte for byte).
const deleted = `sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax`

// A session cookie that names no session is deleted on the answer, which
// then varies on Cookie, as the reference's SessionMiddleware does: one
// shorter than 8 characters whatever the route (Django's session key is
// invalid at once), a well-formed one only where the session is read and
// found missing (unknown, over 40 characters, expired) or ended (the
// password changed). A session whose data does not decode is empty but
// exists, and is kept.
func TestMiddlewareDeletesCookiesOfNoSession(t *testing.T) {
	ctx := context.Background()
	cookies := []struct {
		name string
		// cookie returns the cookie's value in a fresh fixture.
		cookie func(t *testing.T, f *fixture) string
		// short: the cookie names no session, read or not; unknown: it
		// names none once the session is read.
		short, unknown bool
	}{
		{"empty", func(*testing.T, *fixture) string { return "" }, true, true},
		{"3 characters", func(*testing.T, *fixture) string { return "abc" }, true, true},
		{"7 characters", func(*testing.T, *fixture) string { return "abcdefg" }, true, true},
		{"8 characters, unknown", func(*testing.T, *fixture) string { return "abcdefgh" }, false, true},
		{"32 characters, unknown", func(*testing.T, *fixture) string { return "abcdefghijklmnopqrstuvwxyz012345" }, false, true},
		{"41 characters", func(*testing.T, *fixture) string { return strings.Repeat("a", 41) }, false, true},
		{"logged in", func(t *testing.T, f *fixture) string { sid, _ := f.login(t); return sid.Value }, false, false},
		{"expired", func(t *testing.T, f *fixture) string {
			sid, _ := f.login(t)
			f.db.MustExec(`UPDATE "django_session" SET "expire_date" = ?`, store.FormatTime(time.Now().Add(-time.Second)))
			return sid.Value
		}, false, true},
		{"another password's", func(t *testing.T, f *fixture) string {
			sid, _ := f.login(t)
			if err := f.users.SetPassword(ctx, f.alice, "new-pass"); err != nil {
				t.Fatal(err)
			}
			return sid.Value
		}, false, true},
		{"corrupted data", func(t *testing.T, f *fixture) string {
			sid, _ := f.login(t)
			f.db.MustExec(`UPDATE "django_session" SET "session_data" = 'garbage'`)
			return sid.Value
		}, false, false},
		{"anonymous data", func(t *testing.T, f *fixture) string {
			return f.plant(t, "anonymousdatakey", f.m.SecretKey, map[string]any{"cart": "3"}).Value
		}, false, false},
	}
	for _, c := range cookies {
		for _, route := range []struct {
			path  string
			reads bool
		}{{"/me/", true}, {"/ignore/", false}, {"/nowhere/", false}} {
			f := newFixture(t)
			value := c.cookie(t, f)
			p := f.send(t, "GET", route.path, "", &http.Cookie{Name: "sessionid", Value: value})
			wantDeleted := c.short || route.reads && c.unknown
			lines, vary := p.header.Values("Set-Cookie"), p.header.Values("Vary")
			if wantDeleted && (!slices.Equal(lines, []string{deleted}) || !slices.Equal(vary, []string{"Cookie"})) ||
				!wantDeleted && (len(lines) != 0 || len(vary) != 0) {
				t.Errorf("%s cookie, GET %s: Set-Cookie %q, Vary %q; want deleted %v", c.name, route.path, lines, vary, wantDeleted)
			}
		}
	}
	// No cookie, nothing to delete.
	f := newFixture(t)
	if p := f.send(t, "GET", "/me/", ""); len(p.header.Values("Set-Cookie")) != 0 || len(p.header.Values("Vary")) != 0 {
		t.Errorf("no cookie: %v", p.header)
	}
}

// An answer that sets csrftoken varies on Cookie, after its own Vary, and
// a session cookie deleted on it comes after csrftoken, in the order of
// Django's middleware: the reference's browsable pages answer
// `Vary: Accept, Cookie`.
func TestMiddlewareVariesOnTheCSRFCookie(t *testing.T) {
	f := newFixture(t)
	p := f.send(t, "GET", "/form/", "")
	if vary := p.header.Values("Vary"); !slices.Equal(vary, []string{"Accept, Cookie"}) {
		t.Errorf("Vary %q", vary)
	}
	p = f.send(t, "GET", "/form/", "", &http.Cookie{Name: "sessionid", Value: "abc"})
	lines := p.header.Values("Set-Cookie")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "csrftoken=") || lines[1] != deleted {
		t.Errorf("Set-Cookie %q", lines)
	}
	if vary := p.header.Values("Vary"); !slices.Equal(vary, []string{"Accept, Cookie"}) {
		t.Errorf("Vary %q", vary)
	}
}

// Under Middleware, a login replaces a cookie that named no session rather
// than deleting it, and a logout deletes the cookie once; the reference's
// answers (it sets csrftoken first, a difference of order only).
func TestMiddlewareAtLoginAndLogout(t *testing.T) {
	f := newFixture(t)
	for _, stale := range []string{"abc", "abcdefghijklmnopqrstuvwxyz012345"} {
		tok, ck := f.loginPage(t, "/api-auth/login/")
		p := f.send(t, "POST", "/api-auth/login/", "username=alice&password=alice-pass&csrfmiddlewaretoken="+tok,
			ck, &http.Cookie{Name: "sessionid", Value: stale})
		lines := p.header.Values("Set-Cookie")
		if p.status != 302 || len(lines) != 2 || !regexpSession.MatchString(lines[0]) ||
			!strings.HasPrefix(lines[1], "csrftoken=") || !slices.Equal(p.header.Values("Vary"), []string{"Cookie"}) {
			t.Errorf("login over %q: %d Set-Cookie %q Vary %q", stale, p.status, lines, p.header.Values("Vary"))
		}
	}
	sid, ck := f.login(t)
	for _, c := range []*http.Cookie{sid, {Name: "sessionid", Value: "abc"}, {Name: "sessionid", Value: "abcdefghijklmnopqrstuvwxyz012345"}} {
		p := f.send(t, "POST", "/api-auth/logout/", "csrfmiddlewaretoken="+ck.Value, c, ck)
		if lines := p.header.Values("Set-Cookie"); p.status != 302 || !slices.Equal(lines, []string{deleted}) ||
			!slices.Equal(p.header.Values("Vary"), []string{"Cookie"}) {
			t.Errorf("logout with sessionid=%s: %d Set-Cookie %q Vary %q", c.Value, p.status, lines, p.header.Values("Vary"))
		}
	}
}

// regexpSession is the reference's sessionid line at login.
var regexpSession = regexp.MustCompile(`^sessionid=[a-z0-9]{32}; expires=[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT; HttpOnly; Max-Age=1209600; Path=/; SameSite=Lax$`)

// BenchmarkMiddleware: the middleware's cost on a handler that does not
// read the session, against the bare handler, for requests without
// cookies, with other cookies, with a session cookie, and with one it
// deletes.
func BenchmarkMiddleware(b *testing.B) {
	m := &sessions.Manager{SecretKey: "k"}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Vary"] = []string{"Accept"}
		w.WriteHeader(http.StatusOK)
	})
	for _, c := range []struct {
		name    string
		handler http.Handler
		cookie  string
	}{
		{"bare", h, ""},
		{"no cookie", m.Middleware(h), ""},
		{"other cookies", m.Middleware(h), "csrftoken=abcdefghijklmnopqrstuvwxyz012345; theme=dark"},
		{"session cookie", m.Middleware(h), "csrftoken=abcdefghijklmnopqrstuvwxyz012345; sessionid=abcdefghijklmnopqrstuvwxyz012345"},
		{"short session cookie", m.Middleware(h), "sessionid=abc"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			if c.cookie != "" {
				req.Header.Set("Cookie", c.cookie)
			}
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				c.handler.ServeHTTP(w, req)
			}
		})
	}
}

// discard is a ResponseWriter that keeps only its header.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// A handler that flushes before writing (a streamed answer) still gets
// the middleware's headers: the cookie that names no session is deleted.
func TestMiddlewareHeadersBeforeAFlush(t *testing.T) {
	m := &sessions.Manager{SecretKey: "k"}
	h := m.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Error(err)
		}
		_, _ = w.Write([]byte("streamed"))
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Cookie", "sessionid=abc")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if got := w.Result().Header.Values("Set-Cookie"); !slices.Equal(got, []string{deleted}) || w.Result().Header.Get("Vary") != "Cookie" {
		t.Errorf("after a flush: Set-Cookie %q, Vary %q", got, w.Result().Header.Get("Vary"))
	}
}
