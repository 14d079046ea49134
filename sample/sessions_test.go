package sample_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/apitest"
)

// deletedSession is the reference's Set-Cookie deleting a session cookie
// that names no session, byte for byte.
const deletedSession = `sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax`

var csrfLine = regexp.MustCompile(`^csrftoken=[a-zA-Z0-9]{32}; expires=[^;]+ GMT; Max-Age=31449600; Path=/; SameSite=Lax$`)

// TestSessionCookiesAsTheReference: what a browser's session cookie gets
// on each kind of route, as the reference (DRF 3.14, Django 3.2) answers.
// A cookie shorter than 8 characters is deleted on every answer, 404
// pages and redirects included; a well-formed unknown one only where the
// session is read (the session scheme, the login); a live one never. An
// answer that deletes the cookie varies on Cookie; so does one that sets
// csrftoken (the browsable pages, the login page), after Accept.
func TestSessionCookiesAsTheReference(t *testing.T) {
	c := serve(t, newDB(t))
	c.Jar = nil
	valid := login(t, c)
	const html = "Accept: text/html"
	for _, r := range []struct {
		method, path, header, body string
		status                     int
		// vary: the answer's Vary when the cookie is kept; varyDeleted:
		// when it is deleted.
		vary, varyDeleted string
		// reads: the route reads the session; csrf: it sets csrftoken.
		reads, csrf bool
	}{
		{"GET", "/whoami/", "", "", 200, "Accept, Cookie", "Accept, Cookie", true, false},
		{"GET", "/auth/token-first/", "", "", 401, "Accept", "Accept, Cookie", false, false},
		{"GET", "/auth/token-first/", html, "", 401, "Accept, Cookie", "Accept, Cookie", false, true},
		{"GET", "/books/", html, "", 200, "Accept, Cookie", "Accept, Cookie", true, true},
		{"GET", "/pages/cursor/", "", "", 200, "Accept, Cookie", "Accept, Cookie", true, false},
		{"GET", "/pages/cursor/", html, "", 200, "Accept, Cookie", "Accept, Cookie", true, true},
		{"GET", "/url/v9/info/", "", "", 404, "Accept", "Accept, Cookie", false, false},
		{"GET", "/nowhere/", "", "", 404, "", "Cookie", false, false},
		{"GET", "/books", "", "", 301, "", "Cookie", false, false},
		{"GET", "/api-auth/login/", "", "", 200, "Cookie", "Cookie", false, true},
		{"POST", "/api-token-auth/", "", `{"username": "alice", "password": "alice-pass"}`, 200, "Cookie", "Cookie", true, false},
	} {
		for _, ck := range []struct {
			name, value string
			deleted     bool
		}{
			{"no cookie", "", false},
			{"a short cookie", "abc", true},
			{"an unknown cookie", "abcdefghijklmnopqrstuvwxyz012345", r.reads},
			{"a live cookie", valid, false},
		} {
			name := r.method + " " + r.path + " " + r.header + " with " + ck.name
			var header []string
			if r.header != "" {
				header = append(header, r.header)
			}
			if ck.value != "" {
				header = append(header, "Cookie: sessionid="+ck.value)
			}
			resp := c.Do(r.method, r.path, r.body, header...)
			status := r.status
			if r.path == "/api-token-auth/" && ck.value == valid {
				status = http.StatusForbidden // a session's POST without a CSRF token
			}
			vary, want := r.vary, []string(nil)
			if r.csrf {
				want = append(want, "csrftoken")
			}
			if ck.deleted {
				vary, want = r.varyDeleted, append(want, deletedSession)
			}
			got := resp.Header.Values("Set-Cookie")
			if resp.Status != status || resp.Header.Get("Vary") != vary || len(resp.Header.Values("Vary")) > 1 || !cookieLines(got, want) {
				t.Errorf("%s: %d, Vary %q, Set-Cookie %q; want %d, Vary %q, Set-Cookie %q", name, resp.Status, resp.Header.Values("Vary"), got, status, vary, want)
			}
		}
	}
}

// cookieLines reports whether got are the Set-Cookie lines want lists in
// order: "csrftoken" stands for the reference's csrftoken line.
func cookieLines(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		if w == "csrftoken" && !csrfLine.MatchString(got[i]) || w != "csrftoken" && got[i] != w {
			return false
		}
	}
	return true
}

// login logs alice in through the login page and returns her session key.
func login(t *testing.T, c *apitest.Client) string {
	t.Helper()
	page := c.Get("/api-auth/login/")
	token := regexp.MustCompile(`name="csrfmiddlewaretoken" value="(\w+)"`).FindStringSubmatch(page.Body)
	var secret string
	for _, ck := range page.Cookies() {
		if ck.Name == "csrftoken" {
			secret = ck.Value
		}
	}
	if token == nil || secret == "" {
		t.Fatalf("login page: %d %v", page.Status, page.Header)
	}
	form := url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {token[1]}}
	r := c.Post("/api-auth/login/", form.Encode(), "Content-Type: application/x-www-form-urlencoded", "Cookie: csrftoken="+secret)
	for _, ck := range r.Cookies() {
		if ck.Name == "sessionid" && r.Status == http.StatusFound {
			return ck.Value
		}
	}
	t.Fatalf("login: %d %v", r.Status, r.Header)
	return ""
}

// TestLoginPagesAsTheReference: the methods of /api-auth/login/ and
// /api-auth/logout/ beyond GET and POST, as the reference answers them
// (Django 3.2's LoginView and LogoutView behind its CSRF middleware).
func TestLoginPagesAsTheReference(t *testing.T) {
	c := serve(t, newDB(t))
	c.Jar = nil
	r := c.Do("OPTIONS", "/api-auth/login/", "")
	if r.Status != 200 || r.Header.Get("Allow") != "GET, POST, PUT, HEAD, OPTIONS" || r.Header.Get("Content-Length") != "0" ||
		r.Header.Get("Content-Type") != "text/html; charset=utf-8" || r.Body != "" || r.Header["Vary"] != nil {
		t.Errorf("OPTIONS login: %d %v %q", r.Status, r.Header, r.Body)
	}
	if r := c.Do("DELETE", "/api-auth/login/", ""); r.Status != 403 || !strings.Contains(r.Body, "this site requires a CSRF cookie") {
		t.Errorf("DELETE login without CSRF: %d %s", r.Status, r.Body)
	}
	if r := c.Do("PUT", "/api-auth/login/", "username=alice&password=alice-pass", "Content-Type: application/x-www-form-urlencoded"); r.Status != 403 {
		t.Errorf("PUT login without CSRF: %d %s", r.Status, r.Body)
	}
	sid := login(t, c)
	// Django 5.0 logs out on POST only.
	r = c.Get("/api-auth/logout/", "Cookie: sessionid="+sid)
	if r.Status != 405 || r.Header.Get("Allow") != "POST, OPTIONS" || r.Header.Get("Set-Cookie") != "" {
		t.Errorf("GET logout: %d %v", r.Status, r.Header)
	}
	if r := c.Get("/whoami/", "Cookie: sessionid="+sid); !strings.Contains(r.Body, `"username":"alice"`) {
		t.Errorf("logged out by GET: %s", r.Body)
	}
	csrf := "abcdefghijklmnopqrstuvwxyz012345"
	r = c.Post("/api-auth/logout/", "", "Cookie: sessionid="+sid+"; csrftoken="+csrf, "X-CSRFToken: "+csrf)
	if r.Status != 302 || r.Header.Get("Location") != "/whoami/" || r.Header.Get("Set-Cookie") != deletedSession || r.Header.Get("Vary") != "Cookie" {
		t.Errorf("POST logout: %d %v", r.Status, r.Header)
	}
	if r := c.Get("/whoami/", "Cookie: sessionid="+sid); !strings.Contains(r.Body, `"username":null`) {
		t.Errorf("still logged in after POST logout: %s", r.Body)
	}
}

// TestSessionPostParsesBeforeCSRF: a logged-in session's POST has its body
// parsed before the CSRF token is looked for (DRF's Request.POST, read by
// Django's check), so a body that does not parse is the parser's error,
// whatever the token; the reference's answers.
func TestSessionPostParsesBeforeCSRF(t *testing.T) {
	c := serve(t, newDB(t))
	c.Jar = nil
	cookie := "Cookie: sessionid=" + login(t, c) + "; csrftoken=abcdefghijklmnopqrstuvwxyz012345"
	for _, r := range []struct {
		contentType, body string
		status            int
		want              string
	}{
		{"application/json", "not json", 400, `{"detail":"JSON parse error - `}, // then the parser's own words
		{"text/plain", "not json", 415, `{"detail":"Unsupported media type \"text/plain\" in request."}`},
		{"application/x-www-form-urlencoded", "not json", 403, `{"detail":"CSRF Failed: CSRF token from the 'X-Csrftoken' HTTP header has incorrect length."}`},
		{"", "", 403, `{"detail":"CSRF Failed: CSRF token from the 'X-Csrftoken' HTTP header has incorrect length."}`},
	} {
		header := []string{cookie, "X-CSRFToken: wrong"}
		if r.contentType != "" {
			header = append(header, "Content-Type: "+r.contentType)
		}
		got := c.Post("/books/", r.body, header...)
		if got.Status != r.status || !strings.HasPrefix(got.Body, r.want) {
			t.Errorf("POST /books/ %q as %s: %d %s, want %d %s", r.body, r.contentType, got.Status, got.Body, r.status, r.want)
		}
	}
}
