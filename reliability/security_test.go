package reliability_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestNearMissCredentialsRejected sends credentials that differ from real
// ones by one character, by case or by length, through the sample's real
// stores: every one is refused with 401 and DRF's wording, and only the
// exact credentials authenticate, as their own user. (The comparisons are
// constant-time; what a test can see is that no near miss gets in.)
func TestNearMissCredentialsRejected(t *testing.T) {
	base, _ := newSample(t, 1)
	c := client()
	alice := obtainToken(t, base, "alice", "alice-pass")
	admin := obtainToken(t, base, "admin", "admin-pass")
	endpoint := base + "/auth/token-first/"

	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == '0' {
			b[i] = '1'
		} else {
			b[i] = '0'
		}
		return string(b)
	}
	near := []string{
		flip(alice, 0), flip(alice, len(alice)/2), flip(alice, len(alice)-1),
		strings.ToUpper(alice), alice[:len(alice)-1], alice + "0", alice[1:] + alice[:1],
	}
	for _, key := range near {
		r := mustSend(t, c, http.MethodGet, endpoint, "", "", "Authorization: Token "+key)
		if r.status != http.StatusUnauthorized || r.detail() != "Invalid token." || r.header.Get("WWW-Authenticate") != "Token" {
			t.Errorf("token %q (alice's is %q): %d %s", key, alice, r.status, r.body)
		}
	}
	for key, user := range map[string]string{alice: "alice", admin: "admin"} {
		r := mustSend(t, c, http.MethodGet, endpoint, "", "", "Authorization: Token "+key)
		if r.status != http.StatusOK || !strings.Contains(r.body, `"username":"`+user+`"`) {
			t.Errorf("%s's token: %d %s", user, r.status, r.body)
		}
	}

	// Each Basic check is a PBKDF2 hash (slow under -race): a few cases.
	for _, cred := range []string{"alice:alice-pasS", "Alice:alice-pass", "alice:alice-pass "} {
		auth := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(cred))
		r := mustSend(t, c, http.MethodGet, endpoint, "", "", auth)
		if r.status != http.StatusUnauthorized || r.detail() != "Invalid username/password." {
			t.Errorf("Basic %q: %d %s", cred, r.status, r.body)
		}
	}
}

var csrfField = regexp.MustCompile(`name="csrfmiddlewaretoken" value="([^"]+)"`)

// loginForm fetches the sample's login page and returns its form token
// and csrftoken cookie.
func loginForm(t *testing.T, c *http.Client, base string) (string, *http.Cookie) {
	t.Helper()
	resp, err := c.Get(base + "/api-auth/login/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	m := csrfField.FindSubmatch(page)
	for _, ck := range resp.Cookies() {
		if ck.Name == "csrftoken" && m != nil {
			return string(m[1]), ck
		}
	}
	t.Fatalf("login page: %d without a CSRF token", resp.StatusCode)
	return "", nil
}

// postForm posts form to path with the cookies.
func postForm(t *testing.T, c *http.Client, base, path string, form url.Values, cookies ...*http.Cookie) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// offSite are "next" values that lead browsers to another site, each
// refused by Django's url_has_allowed_host_and_scheme.
var offSite = []string{
	"//evil.com", "https://evil.com", `/\evil.com`, `\\evil.com`, "https:evil.com", " //evil.com",
	"///evil.com", "http://127.0.0.1.evil.com/", "javascript:alert(1)", "//evil.com@127.0.0.1/",
}

// TestRedirectsStayOnSite logs in and out of the sample with "next" values
// that point off-site, in the form and in the query: every answer
// redirects to /whoami/. The session cookie of a login is HttpOnly,
// SameSite=Lax, and not Secure over plain HTTP (the sample does not
// configure it; contrib/sessions tests the Secure setting).
func TestRedirectsStayOnSite(t *testing.T) {
	base, _ := newSample(t, 1)
	c := client()
	// Each login checks a password (PBKDF2, slow under -race): the first
	// three values; logouts take them all.
	for i, next := range offSite[:3] {
		token, csrfCookie := loginForm(t, c, base)
		form := url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {token}}
		path := "/api-auth/login/"
		if i%2 == 0 {
			form.Set("next", next)
		} else {
			path += "?next=" + url.QueryEscape(next)
		}
		resp := postForm(t, c, base, path, form, csrfCookie)
		if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/whoami/" {
			t.Errorf("login with next %q: %d to %q", next, resp.StatusCode, resp.Header.Get("Location"))
		}
		var sid *http.Cookie
		for _, ck := range resp.Cookies() {
			if ck.Name == "sessionid" {
				sid = ck
			}
		}
		if sid == nil || !sid.HttpOnly || sid.SameSite != http.SameSiteLaxMode || sid.Secure {
			t.Errorf("login with next %q: session cookie %+v", next, sid)
		}
	}
	token, csrfCookie := loginForm(t, c, base)
	for _, next := range offSite {
		for _, inQuery := range []bool{false, true} {
			form := url.Values{"csrfmiddlewaretoken": {token}}
			path := "/api-auth/logout/"
			if inQuery {
				path += "?next=" + url.QueryEscape(next)
			} else {
				form.Set("next", next)
			}
			resp := postForm(t, c, base, path, form, csrfCookie)
			// Django 5.2 sends an unsafe next to LOGOUT_REDIRECT_URL
			// (Django 3.2 back to the logout page).
			if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/whoami/" {
				t.Errorf("logout with next %q (query %v): %d to %q", next, inQuery, resp.StatusCode, resp.Header.Get("Location"))
			}
		}
	}
}
