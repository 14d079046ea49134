package csrf_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/sessions/csrf"
	"github.com/go-drf/drf/framework/compat"
)

// Issued together by Django 3.2 (the reference): its csrftoken cookie (a
// masked token) and the form token of the same page.
const (
	djangoCookie = "G3HhinSFtJtk2MeNVP0jQ8lEZtkovbKg9HAegvt2DZUOZxKQI7TQOm1b7doCK16H"
	djangoToken  = "vifu61XXiT6hQK7KioVXzTW07lAVuQbxYW8r49yks9xLNvDN5GOux7Cxf5E9JGxY"
	// djangoSecret is what both unmask to (Django's _unmask_cipher_token).
	djangoSecret = "DO378iLxkqBE7VGdXs3H8oQHiUeop0wB"
)

func post(cookie, header string) *http.Request {
	r := httptest.NewRequest("POST", "http://example.com/x", nil)
	if cookie != "" {
		r.Header.Set("Cookie", "csrftoken="+cookie)
	}
	if header != "" {
		r.Header.Set("X-CSRFToken", header)
	}
	return r
}

func reason(err error) string {
	var e *csrf.Error
	if errors.As(err, &e) {
		return e.Reason
	}
	if err != nil {
		return "not a CSRF error: " + err.Error()
	}
	return ""
}

// Django 5.2 says what is wrong with a token; Django 3.2 (compat.DRF314)
// says "CSRF token missing or incorrect." of them all. Both pinned on the
// references' /auth/csrf/ (conformance's compatTable).
func TestDjangoTokensInterOperate(t *testing.T) {
	const fromHeader = "CSRF token from the 'X-Csrftoken' HTTP header "
	cases := []struct{ name, cookie, header, reason, reason314 string }{
		{"Django cookie, Django token", djangoCookie, djangoToken, "", ""},
		{"Django cookie, the secret", djangoCookie, djangoSecret, "", ""},
		{"secret cookie, Django token", djangoSecret, djangoToken, "", ""},
		{"secret cookie, the cookie's own value", djangoSecret, djangoSecret, "", ""},
		{"one character off", djangoCookie, djangoToken[:63] + "A", fromHeader + "incorrect.", csrf.ReasonBadToken},
		{"too short", djangoCookie, djangoToken[:40], fromHeader + "has incorrect length.", csrf.ReasonBadToken},
		{"a character outside the alphabet", djangoCookie, djangoToken[:63] + "-", fromHeader + "has invalid characters.", csrf.ReasonBadToken},
		{"no cookie", "", djangoToken, csrf.ReasonNoCookie, csrf.ReasonNoCookie},
		{"a malformed cookie", "abc", djangoToken, "CSRF cookie has incorrect length.", csrf.ReasonBadToken},
		{"no token", djangoCookie, "", csrf.ReasonNoToken, csrf.ReasonBadToken},
	}
	for _, c := range cases {
		for _, p := range []*csrf.Protection{{}, {Compatibility: compat.DRF314}} {
			want := c.reason
			if p.Compatibility == compat.DRF314 {
				want = c.reason314
			}
			if got := reason(p.Check(post(c.cookie, c.header), nil)); got != want {
				t.Errorf("%s at %s: %q, want %q", c.name, p.Compatibility, got, want)
			}
		}
	}
}

func TestSafeMethodsAreNotChecked(t *testing.T) {
	p := &csrf.Protection{}
	for _, m := range []string{"GET", "HEAD", "OPTIONS", "TRACE"} {
		if err := p.Check(httptest.NewRequest(m, "/", nil), nil); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
	for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		if err := p.Check(httptest.NewRequest(m, "/", nil), nil); err == nil {
			t.Errorf("%s passed without a token", m)
		}
	}
}

var alnum = regexp.MustCompile(`^[a-zA-Z0-9]+$`)

func cookieOf(t *testing.T, rec *httptest.ResponseRecorder) *http.Cookie {
	t.Helper()
	var found *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == "csrftoken" {
			if found != nil {
				t.Fatalf("two csrftoken cookies: %v", rec.Header()["Set-Cookie"])
			}
			found = c
		}
	}
	if found == nil {
		t.Fatalf("no csrftoken cookie: %v", rec.Header()["Set-Cookie"])
	}
	return found
}

func TestTokenCreatesAndKeepsTheSecret(t *testing.T) {
	p := &csrf.Protection{}
	rec := httptest.NewRecorder()
	first := p.Token(rec, httptest.NewRequest("GET", "/", nil))
	second := p.Token(rec, httptest.NewRequest("GET", "/", nil))
	c := cookieOf(t, rec)
	if len(c.Value) != csrf.SecretLength || !alnum.MatchString(c.Value) {
		t.Fatalf("cookie %q is not a 32-character secret", c.Value)
	}
	if c.MaxAge != 31449600 || c.Path != "/" || c.HttpOnly || c.Secure || c.SameSite != http.SameSiteLaxMode {
		t.Errorf("cookie attributes: %+v", c)
	}
	if time.Until(c.Expires) < 51*7*24*time.Hour {
		t.Errorf("cookie expires %v", c.Expires)
	}
	for _, tok := range []string{first, second} {
		if len(tok) != csrf.TokenLength || !alnum.MatchString(tok) {
			t.Fatalf("token %q is not 64 letters and digits", tok)
		}
		if err := p.Check(post(c.Value, tok), nil); err != nil {
			t.Errorf("token %q does not match the cookie: %v", tok, err)
		}
	}
	if first == second {
		t.Error("two tokens of one secret are equal: the mask is not fresh")
	}

	// A request that has the cookie keeps its secret.
	rec = httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Cookie", "csrftoken="+djangoCookie)
	tok := p.Token(rec, req)
	if got := cookieOf(t, rec).Value; got != djangoSecret {
		t.Errorf("cookie %q, want Django's secret %q", got, djangoSecret)
	}
	if err := p.Check(post(djangoCookie, tok), nil); err != nil {
		t.Errorf("new token does not match Django's cookie: %v", err)
	}
}

func TestRotateReplacesTheSecret(t *testing.T) {
	p := &csrf.Protection{CookieName: "xsrf", Secure: true, CookieAge: time.Hour, CookieDomain: "example.com"}
	rec := httptest.NewRecorder()
	rec.Header().Add("Set-Cookie", "other=1")
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Cookie", "xsrf="+djangoSecret)
	old := p.Token(rec, req)
	p.Rotate(rec)
	var got *http.Cookie
	names := []string{}
	for _, c := range rec.Result().Cookies() {
		names = append(names, c.Name)
		if c.Name == "xsrf" {
			got = c
		}
	}
	if strings.Join(names, ",") != "other,xsrf" {
		t.Fatalf("cookies %v, want other and one xsrf", names)
	}
	if got.Value == djangoSecret || len(got.Value) != csrf.SecretLength {
		t.Errorf("rotated secret %q", got.Value)
	}
	if !got.Secure || got.MaxAge != 3600 || got.Domain != "example.com" {
		t.Errorf("cookie attributes: %+v", got)
	}
	r := post("", old)
	r.Header.Set("Cookie", "xsrf="+got.Value)
	if reason(p.Check(r, nil)) != "CSRF token from the 'X-Csrftoken' HTTP header incorrect." {
		t.Error("a token of the old secret still passes")
	}
}

func TestFormFieldIsReadForPOSTOnly(t *testing.T) {
	p := &csrf.Protection{HeaderName: "X-Token"}
	calls := 0
	form := func() string { calls++; return djangoToken }
	r := post(djangoCookie, "")
	if err := p.Check(r, form); err != nil || calls != 1 {
		t.Errorf("POST with the field: %v, form read %d times", err, calls)
	}
	r = httptest.NewRequest("DELETE", "/", nil)
	r.Header.Set("Cookie", "csrftoken="+djangoCookie)
	if reason(p.Check(r, form)) != csrf.ReasonNoToken || calls != 1 {
		t.Errorf("DELETE read the form (%d)", calls)
	}
	r.Header.Set("X-Token", djangoToken)
	if err := p.Check(r, form); err != nil {
		t.Errorf("DELETE with the renamed header: %v", err)
	}
	if p.Field() != "csrfmiddlewaretoken" {
		t.Errorf("Field() = %q", p.Field())
	}
}

func TestRefererRules(t *testing.T) {
	secure := func(r *http.Request) bool { return true }
	cases := []struct {
		name    string
		p       *csrf.Protection
		host    string
		referer string
		reason  string
	}{
		{"same host", &csrf.Protection{IsSecure: secure}, "example.com", "https://example.com/a", ""},
		{"host in another case", &csrf.Protection{IsSecure: secure}, "Example.com", "https://EXAMPLE.com/a", ""},
		{"subdomain without a cookie domain", &csrf.Protection{IsSecure: secure}, "example.com", "https://www.example.com/",
			"Referer checking failed - https://www.example.com/ does not match any trusted origins."},
		{"subdomain of the cookie domain", &csrf.Protection{IsSecure: secure, CookieDomain: ".example.com"}, "api.example.com", "https://www.example.com/", ""},
		{"cookie domain itself", &csrf.Protection{IsSecure: secure, CookieDomain: ".example.com"}, "api.example.com", "https://example.com/", ""},
		{"cookie domain keeps a non-standard port", &csrf.Protection{IsSecure: secure, CookieDomain: ".example.com"}, "api.example.com:8443", "https://www.example.com:8443/", ""},
		{"cookie domain, other port", &csrf.Protection{IsSecure: secure, CookieDomain: ".example.com"}, "api.example.com:8443", "https://www.example.com/",
			"Referer checking failed - https://www.example.com/ does not match any trusted origins."},
		{"trusted origin", &csrf.Protection{IsSecure: secure, TrustedOrigins: []string{"https://other.example"}}, "example.com", "https://other.example/", ""},
		{"scheme-less Referer", &csrf.Protection{IsSecure: secure}, "example.com", "//example.com/", csrf.ReasonMalformedReferer},
		{"plain HTTP is not Referer-checked", &csrf.Protection{}, "example.com", "http://evil.example/", ""},
	}
	for _, c := range cases {
		r := post(djangoCookie, djangoToken)
		r.Host = c.host
		r.Header.Set("Referer", c.referer)
		if got := reason(c.p.Check(r, nil)); got != c.reason {
			t.Errorf("%s: %q, want %q", c.name, got, c.reason)
		}
	}
}
