package authentication_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/contrib/sessions/csrf"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
)

// A csrftoken cookie and a form token that Django 3.2 (the reference)
// issued together: both mask the same secret.
const (
	djangoCookie = "G3HhinSFtJtk2MeNVP0jQ8lEZtkovbKg9HAegvt2DZUOZxKQI7TQOm1b7doCK16H"
	djangoToken  = "vifu61XXiT6hQK7KioVXzTW07lAVuQbxYW8r49yks9xLNvDN5GOux7Cxf5E9JGxY"
)

// csrfView is /auth/csrf/ of the sample: Session only, AllowAny.
func csrfView(m *sessions.Manager) http.Handler {
	return apitest.View(framework.View{
		Authentication: framework.Authenticators(authentication.Session{Sessions: m}),
		Get:            whoami,
		Post:           whoami,
		Put:            whoami,
	})
}

func maskedToken(t *testing.T, m *sessions.Manager, cookie string) string {
	t.Helper()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Cookie", cookie)
	return m.Protection().Token(httptest.NewRecorder(), req)
}

func multipartBody(t *testing.T, fields map[string]string) (string, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	mw.Close()
	return b.String(), mw.FormDataContentType()
}

// The /auth/csrf/ answers of the reference: anonymous without token 200,
// session without token 403, with a valid token 200.
func TestSessionCSRF(t *testing.T) {
	w := newWorld(t)
	srv := httptest.NewServer(csrfView(w.sessions))
	defer srv.Close()
	session, secret := w.loginCookies(t, w.alice)
	sessionOnly := session[:strings.Index(session, "; csrftoken")]
	masked := maskedToken(t, w.sessions, session)
	if len(masked) != csrf.TokenLength || len(secret) != csrf.SecretLength {
		t.Fatalf("token %q, secret %q", masked, secret)
	}
	mp, mpType := multipartBody(t, map[string]string{"csrfmiddlewaretoken": masked})
	// Django 5.2's reasons (Django 3.2 says csrf.ReasonBadToken of each).
	const missing, fromHeader = "CSRF Failed: " + csrf.ReasonNoToken, "CSRF Failed: CSRF token from the 'X-Csrftoken' HTTP header "
	cases := []struct {
		name, method, body string
		headers            []string
		status             int
		detail             string
		user               any
	}{
		{"anonymous POST without token", "POST", "", nil, 200, "", nil},
		{"anonymous POST with a foreign Origin is not checked", "POST", "", []string{"Origin: http://evil.example"}, 200, "", nil},
		{"session GET needs no token", "GET", "", []string{"Cookie: " + session}, 200, "", "alice"},
		{"session POST without token", "POST", "", []string{"Cookie: " + session}, 403, missing, nil},
		{"session POST without CSRF cookie", "POST", "", []string{"Cookie: " + sessionOnly, "X-CSRFToken: " + masked}, 403, "CSRF Failed: " + csrf.ReasonNoCookie, nil},
		{"masked token in the header", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + masked}, 200, "", "alice"},
		{"secret itself in the header", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + secret}, 200, "", "alice"},
		{"wrong token", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + strings.Repeat("a", 64)}, 403, fromHeader + "incorrect.", nil},
		{"token of odd length", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: abc"}, 403, fromHeader + "has incorrect length.", nil},
		{"token with other characters", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + masked[:63] + "-"}, 403, fromHeader + "has invalid characters.", nil},
		{"malformed cookie", "POST", "", []string{"Cookie: " + sessionOnly + "; csrftoken=!!", "X-CSRFToken: " + masked}, 403, "CSRF Failed: CSRF cookie has incorrect length.", nil},
		{"Django's cookie and token", "POST", "", []string{"Cookie: " + sessionOnly + "; csrftoken=" + djangoCookie, "X-CSRFToken: " + djangoToken}, 200, "", "alice"},
		{"Django's token with our secret", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + djangoToken}, 403, fromHeader + "incorrect.", nil},
		{"form field", "POST", "csrfmiddlewaretoken=" + masked, []string{"Cookie: " + session, "Content-Type: application/x-www-form-urlencoded"}, 200, "", "alice"},
		{"multipart field", "POST", mp, []string{"Cookie: " + session, "Content-Type: " + mpType}, 200, "", "alice"},
		{"field of a JSON body is not read", "POST", `{"csrfmiddlewaretoken":"` + masked + `"}`, []string{"Cookie: " + session, "Content-Type: application/json"}, 403, missing, nil},
		{"form field is read for POST only", "PUT", "csrfmiddlewaretoken=" + masked, []string{"Cookie: " + session, "Content-Type: application/x-www-form-urlencoded"}, 403, missing, nil},
		{"PUT with the header", "PUT", "", []string{"Cookie: " + session, "X-CSRFToken: " + masked}, 200, "", "alice"},
		{"cross-origin browser request", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + masked, "Origin: http://evil.example"},
			403, "CSRF Failed: Origin checking failed - http://evil.example does not match any trusted origins.", nil},
		{"cross-site fetch", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + masked, "Sec-Fetch-Site: cross-site"},
			403, "CSRF Failed: Origin checking failed - Sec-Fetch-Site is cross-site.", nil},
		{"same-origin fetch", "POST", "", []string{"Cookie: " + session, "X-CSRFToken: " + masked, "Sec-Fetch-Site: same-origin", "Origin: " + srv.URL}, 200, "", "alice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := do(t, srv, c.method, "/", c.body, c.headers...)
			if a.status != c.status || a.detail() != c.detail {
				t.Fatalf("got %d %q, want %d %q", a.status, a.detail(), c.status, c.detail)
			}
			if a.challenge != "" {
				t.Errorf("WWW-Authenticate %q on a session answer", a.challenge)
			}
			if c.status == 200 && a.body["username"] != c.user {
				t.Errorf("username %v, want %v", a.body["username"], c.user)
			}
		})
	}
}

// Over HTTPS the Referer must name this host or a trusted origin.
func TestSessionCSRFOverHTTPS(t *testing.T) {
	w := newWorld(t)
	w.sessions.CSRF = &csrf.Protection{TrustedOrigins: []string{"https://admin.example"}}
	srv := httptest.NewTLSServer(csrfView(w.sessions))
	defer srv.Close()
	session, secret := w.loginCookies(t, w.alice)
	auth := []string{"Cookie: " + session, "X-CSRFToken: " + secret}
	with := func(h ...string) []string { return append(append([]string{}, auth...), h...) }
	cases := []struct {
		name    string
		headers []string
		status  int
		detail  string
	}{
		{"no Referer", auth, 403, "CSRF Failed: " + csrf.ReasonNoReferer},
		{"malformed Referer", with("Referer: nonsense"), 403, "CSRF Failed: " + csrf.ReasonMalformedReferer},
		{"insecure Referer", with("Referer: http://" + srv.Listener.Addr().String() + "/"), 403, "CSRF Failed: " + csrf.ReasonInsecureReferer},
		{"foreign Referer", with("Referer: https://evil.example/page"), 403,
			"CSRF Failed: Referer checking failed - https://evil.example/page does not match any trusted origins."},
		{"other port", with("Referer: https://127.0.0.1:1/"), 403,
			"CSRF Failed: Referer checking failed - https://127.0.0.1:1/ does not match any trusted origins."},
		{"foreign Origin", with("Referer: "+srv.URL+"/", "Origin: https://evil.example"), 403,
			"CSRF Failed: Origin checking failed - https://evil.example does not match any trusted origins."},
		{"same host", with("Referer: " + srv.URL + "/page"), 200, ""},
		{"same host without the token", []string{"Cookie: " + session, "Referer: " + srv.URL + "/"}, 403, "CSRF Failed: " + csrf.ReasonNoToken},
		{"trusted origin", with("Referer: https://admin.example/x", "Origin: https://admin.example"), 200, ""},
		{"anonymous needs no Referer", nil, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := do(t, srv, "POST", "/", "", c.headers...)
			if a.status != c.status || a.detail() != c.detail {
				t.Fatalf("got %d %q, want %d %q", a.status, a.detail(), c.status, c.detail)
			}
		})
	}
}

// Behind a TLS-terminating proxy, IsSecure tells HTTPS requests apart.
func TestSessionCSRFBehindProxy(t *testing.T) {
	w := newWorld(t)
	w.sessions.CSRF = &csrf.Protection{IsSecure: func(r *http.Request) bool { return r.Header.Get("X-Forwarded-Proto") == "https" }}
	srv := httptest.NewServer(csrfView(w.sessions))
	defer srv.Close()
	session, secret := w.loginCookies(t, w.alice)
	if a := do(t, srv, "POST", "/", "", "Cookie: "+session, "X-CSRFToken: "+secret, "X-Forwarded-Proto: https"); a.status != 403 || a.detail() != "CSRF Failed: "+csrf.ReasonNoReferer {
		t.Errorf("proxied HTTPS without Referer: %d %q", a.status, a.detail())
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	if a := do(t, srv, "POST", "/", "", "Cookie: "+session, "X-CSRFToken: "+secret, "X-Forwarded-Proto: https", "Referer: https://"+host+"/"); a.status != 200 {
		t.Errorf("proxied HTTPS with Referer: %d %q", a.status, a.detail())
	}
}

// A misconfigured trusted origin surfaces as a server error, not as a pass.
func TestSessionCSRFBadConfiguration(t *testing.T) {
	w := newWorld(t)
	w.sessions.CSRF = &csrf.Protection{TrustedOrigins: []string{"not an origin"}}
	srv := httptest.NewServer(csrfView(w.sessions))
	defer srv.Close()
	session, secret := w.loginCookies(t, w.alice)
	if a := do(t, srv, "POST", "/", "", "Cookie: "+session, "X-CSRFToken: "+secret); a.status != 500 {
		t.Errorf("got %d %v, want 500", a.status, a.body)
	}
}

// A view that consults the session scheme answers "Vary: Cookie", as
// Django does once the session is read; one that never reaches it does not.
func TestSessionSchemeVariesOnCookie(t *testing.T) {
	w := newWorld(t)
	token := w.token(t, w.alice)
	sessionFirst := serve(t, framework.AllowAny{}, authentication.Session{Sessions: w.sessions}, authentication.Token{Tokens: w.tokens})
	tokenFirst := serve(t, framework.AllowAny{}, authentication.Token{Tokens: w.tokens}, authentication.Session{Sessions: w.sessions})
	cases := []struct {
		srv     *httptest.Server
		headers []string
		vary    string
	}{
		{sessionFirst, nil, "Cookie"},
		{sessionFirst, []string{"Authorization: Token " + token}, "Cookie"},
		{tokenFirst, []string{"Authorization: Token " + token}, ""},
		{tokenFirst, nil, "Cookie"},
	}
	for i, c := range cases {
		a := do(t, c.srv, "GET", "/", "", c.headers...)
		if got := strings.Join(a.header.Values("Vary"), ","); got != c.vary {
			t.Errorf("case %d: Vary %q, want %q", i, got, c.vary)
		}
	}
}

// Session answers denied anonymous requests with 403 as DRF does, and with
// 401 and a Session challenge once a Realm is set (opt-in, DRF #5968).
func TestSessionUnauthorizedWhenRealmSet(t *testing.T) {
	w := newWorld(t)
	session, _ := w.loginCookies(t, w.alice)
	const notProvided = "Authentication credentials were not provided."
	cases := []struct {
		name      string
		scheme    authentication.Session
		headers   []string
		status    int
		challenge string
	}{
		{"DRF's default", authentication.Session{Sessions: w.sessions}, nil, 403, ""},
		{"realm set", authentication.Session{Sessions: w.sessions, Realm: "api"}, nil, 401, `Session realm="api"`},
		{"realm quoted", authentication.Session{Sessions: w.sessions, Realm: `my "books"`}, nil, 401, `Session realm="my \"books\""`},
		{"logged in", authentication.Session{Sessions: w.sessions, Realm: "api"}, []string{"Cookie: " + session}, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := serve(t, framework.IsAuthenticated{}, c.scheme)
			a := do(t, srv, "GET", "/", "", c.headers...)
			if a.status != c.status || a.challenge != c.challenge {
				t.Fatalf("got %d %q, want %d %q", a.status, a.challenge, c.status, c.challenge)
			}
			if c.status != 200 && a.detail() != notProvided {
				t.Errorf("detail %q", a.detail())
			}
			if got := a.header.Get("Vary"); got != "Cookie" {
				t.Errorf("Vary %q, want Cookie", got)
			}
		})
	}
	// A CSRF failure stays a 403 refusal of an authenticated request.
	srv := serve(t, framework.IsAuthenticated{}, authentication.Session{Sessions: w.sessions, Realm: "api"})
	if a := do(t, srv, "POST", "/", "", "Cookie: "+session); a.status != 403 || a.challenge != "" {
		t.Errorf("POST without CSRF token: %d %q", a.status, a.challenge)
	}
	// The first scheme's challenge decides, as in DRF.
	srv = serve(t, framework.IsAuthenticated{}, authentication.Token{Tokens: w.tokens}, authentication.Session{Sessions: w.sessions, Realm: "api"})
	if a := do(t, srv, "GET", "/", ""); a.status != 401 || a.challenge != "Token" {
		t.Errorf("Token first: %d %q", a.status, a.challenge)
	}
}
