package sessions_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework/compat"
)

const neverCached = "max-age=0, no-cache, no-store, must-revalidate, private"

// The login page answers every method as the reference's (Django 3.2's
// LoginView behind CsrfViewMiddleware): unsafe methods are CSRF-checked
// first (the token from the X-CSRFToken header, or a POST's form field);
// OPTIONS is 200 and other methods 405, both with Allow, no body and
// never cached; PUT is handled as POST without reading its body, so it
// shows the form with both fields required.
func TestLoginMethodsAsDjangos(t *testing.T) {
	f := newFixture(t)
	tok, ck := f.loginPage(t, "/api-auth/login/")
	header, field := "X-CSRFToken: "+tok, "csrfmiddlewaretoken="+tok+"&username=alice&password=alice-pass"
	for _, c := range []struct {
		method, body, header string
		cookie               bool
		status               int
	}{
		{"OPTIONS", "", "", false, 200},
		{"OPTIONS", "", "", true, 200},
		{"TRACE", "", "", false, 405},
		{"PATCH", "", "", false, 403},
		{"PATCH", field, "", true, 403},
		{"PATCH", "", header, true, 405},
		{"DELETE", "", "", false, 403},
		{"DELETE", field, "", true, 403},
		{"DELETE", "", header, true, 405},
		{"PUT", "username=alice&password=alice-pass", "", false, 403},
		{"PUT", field, "", true, 403},
	} {
		var cookies []*http.Cookie
		if c.cookie {
			cookies = append(cookies, ck)
		}
		p := f.sendWith(t, c.method, "/api-auth/login/", c.body, c.header, cookies...)
		name := c.method + " " + c.body + " " + c.header
		if p.status != c.status {
			t.Errorf("%s: %d, want %d\n%s", name, p.status, c.status, p.body)
			continue
		}
		if c.status == 403 {
			if !strings.Contains(p.body, "CSRF verification failed.") || p.header.Get("Cache-Control") != "" {
				t.Errorf("%s: %v\n%s", name, p.header, p.body)
			}
			continue
		}
		h := p.header
		if h.Get("Allow") != "GET, POST, PUT, HEAD, OPTIONS" || h.Get("Content-Length") != "0" || p.body != "" ||
			h.Get("Content-Type") != "text/html; charset=utf-8" || h.Get("Cache-Control") != neverCached ||
			h.Get("Expires") == "" || h["Vary"] != nil || h["Set-Cookie"] != nil {
			t.Errorf("%s: %v %q", name, h, p.body)
		}
	}

	// PUT with a valid token: the form again, both fields required (its
	// body unread), the query's next kept; no login.
	p := f.sendWith(t, "PUT", "/api-auth/login/?next=/books/", "username=alice&password=alice-pass", header, ck)
	if p.status != 200 || strings.Count(p.body, "This field is required.") != 2 || !strings.Contains(p.body, `name="next" value="/books/"`) {
		t.Errorf("PUT with the token: %d\n%s", p.status, p.body)
	}
	if p.header.Get("Cache-Control") != neverCached || !slices.Equal(p.header.Values("Vary"), []string{"Cookie"}) ||
		p.cookies["csrftoken"] == nil || p.cookies["sessionid"] != nil {
		t.Errorf("PUT with the token: %v", p.header)
	}

	// HEAD is told GET's length.
	if h, g := f.send(t, "HEAD", "/api-auth/login/", ""), f.send(t, "GET", "/api-auth/login/", ""); h.body != "" ||
		h.header.Get("Content-Length") == "" || h.header.Get("Content-Length") != g.header.Get("Content-Length") {
		t.Errorf("HEAD Content-Length %q, GET's %q", h.header.Get("Content-Length"), g.header.Get("Content-Length"))
	}
}

// The logout page is Django's LogoutView, as the references': Django
// 5.2's logs out on POST only (once CSRF-checked, the token from the
// header or the form field), answers OPTIONS with its Allow header and
// other methods 405 (unsafe ones CSRF-checked first); Django 3.2's
// (compat.DRF314) logs out on any method. A logout redirects, never
// cached, varying on Cookie, deleting the session cookie. A "next" field
// or query parameter is followed when it is same-site; one given but not
// safe leads to LogoutRedirect on Django 5.2, back to the logout page on
// Django 3.2.
func TestLogoutAsDjangos(t *testing.T) {
	for _, level := range []compat.Level{compat.Current, compat.DRF314} {
		t.Run(level.String(), func(t *testing.T) { testLogout(t, level) })
	}
}

func testLogout(t *testing.T, level compat.Level) {
	legacy := level == compat.DRF314
	f := newFixture(t, func(m *sessions.Manager) { m.LogoutRedirect = "/whoami/"; m.Compatibility = level })
	for _, c := range []struct {
		method, form      string
		header            bool
		status, status314 int
	}{
		{"GET", "", false, 405, 302},
		{"HEAD", "", false, 405, 302},
		{"OPTIONS", "", false, 200, 302},
		{"TRACE", "", false, 405, 302},
		{"POST", "", false, 403, 403},
		{"POST", "csrf", false, 302, 302},
		{"POST", "", true, 302, 302},
		{"PUT", "", false, 403, 403},
		{"PUT", "csrf", false, 403, 403},
		{"PUT", "", true, 405, 302},
		{"PATCH", "", true, 405, 302},
		{"DELETE", "", false, 403, 403},
		{"DELETE", "", true, 405, 302},
	} {
		sid, ck := f.login(t)
		var body, header string
		if c.form != "" {
			body = "csrfmiddlewaretoken=" + ck.Value
		}
		if c.header {
			header = "X-CSRFToken: " + ck.Value
		}
		p := f.sendWith(t, c.method, "/api-auth/logout/", body, header, sid, ck)
		name := c.method + " " + body + " " + header
		want := c.status
		if legacy {
			want = c.status314
		}
		if p.status != want {
			t.Errorf("%s: %d, want %d", name, p.status, want)
			continue
		}
		h := p.header
		if want != 302 {
			if got := f.me(t, sid); got != "alice" {
				t.Errorf("%s: refused, yet logged out (%q)", name, got)
			}
			if want != 403 && (h.Get("Allow") != "POST, OPTIONS" || h.Get("Content-Length") != "0" || h.Get("Cache-Control") != neverCached) {
				t.Errorf("%s: %v", name, h)
			}
			continue
		}
		if h.Get("Location") != "/whoami/" || h.Get("Content-Length") != "0" || h.Get("Cache-Control") != neverCached ||
			!slices.Equal(h.Values("Vary"), []string{"Cookie"}) || !slices.Equal(h.Values("Set-Cookie"), []string{deleted}) {
			t.Errorf("%s: %v", name, h)
		}
		if got := f.me(t, sid); got != "anonymous" {
			t.Errorf("%s: still logged in as %q", name, got)
		}
	}

	// Without a session: GET is 405 on Django 5.2, the same redirect on
	// Django 3.2 with Vary: Cookie; nothing deleted.
	if p := f.send(t, "GET", "/api-auth/logout/", ""); p.status != map[bool]int{false: 405, true: 302}[legacy] || p.header["Set-Cookie"] != nil ||
		(legacy && !slices.Equal(p.header.Values("Vary"), []string{"Cookie"})) {
		t.Errorf("anonymous: %d %v", p.status, p.header)
	}

	// next: a safe one is followed, a POST's field before the query's; one
	// given but not safe (empty too) leads to LogoutRedirect, or back to
	// the logout page on Django 3.2, as the references answer.
	_, ck := f.login(t)
	back := "/whoami/"
	if legacy {
		back = "/api-auth/logout/"
	}
	for _, c := range []struct{ query, form, want string }{
		{"?next=/books/", "", "/books/"},
		{"", "", "/whoami/"},
		{"?next=", "", back},
		{"?next=http://evil.example/", "", back},
		{"?next=//evil.example", "", back},
		{"?next=/pages/off/", "&next=/books/", "/books/"},
		{"?next=/pages/off/", "&next=", back},
		{"?next=/pages/off/", "&x=1", "/pages/off/"},
	} {
		p := f.send(t, "POST", "/api-auth/logout/"+c.query, "csrfmiddlewaretoken="+ck.Value+c.form, ck)
		if p.status != 302 || p.header.Get("Location") != c.want {
			t.Errorf("next %s %s: %d %q, want %q", c.query, c.form, p.status, p.header.Get("Location"), c.want)
		}
	}
}

// The login form authenticates the typed name in NFKC form, as Django's
// AuthenticationForm cleans it: "ａｌｉｃｅ" in fullwidth letters logs in
// as alice; a name longer than any stored one is left as typed.
func TestLoginNormalizesTheUsername(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		name   string
		status int
	}{
		{"ａｌｉｃｅ", 302},
		{strings.Repeat("ａ", 151), 200},
	} {
		tok, ck := f.loginPage(t, "/api-auth/login/")
		p := f.send(t, "POST", "/api-auth/login/", "username="+url.QueryEscape(c.name)+"&password=alice-pass&csrfmiddlewaretoken="+tok, ck)
		if p.status != c.status {
			t.Errorf("login as %q: %d, want %d", c.name, p.status, c.status)
		}
	}
}
