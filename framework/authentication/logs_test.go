package authentication_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/request"
)

// syncBuffer is a log destination safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Tokens, passwords, session keys and CSRF secrets never reach the logs,
// whatever succeeds or fails, even when a handler logs request.Auth.
func TestSecretsNeverLogged(t *testing.T) {
	var logs syncBuffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(old)

	w := newWorld(t)
	settings := framework.Settings{Authentication: framework.Authenticators(
		authentication.Session{Sessions: w.sessions},
		authentication.Token{Tokens: w.tokens},
		authentication.Basic{Users: inactiveChecker(w)},
	)}
	obtain := apitest.View(authtoken.ObtainToken{Users: w.users, Tokens: w.tokens}.View(), settings)
	logged := apitest.View(framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		slog.Info("handled", "user", r.User().GetUsername(), "auth", r.Auth())
		return whoami(v, r)
	}}, settings)
	mux := http.NewServeMux()
	mux.Handle("/token/", obtain)
	mux.Handle("/api/", logged)
	mux.Handle("/api-auth/", w.sessions.Pages())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	pages := apitest.New(t, mux)
	pages.Jar = nil
	post := func(path, body, cookie string) *apitest.Response {
		return pages.Post(path, body, "Content-Type: application/x-www-form-urlencoded", "Cookie: "+cookie)
	}

	form := "Content-Type: application/x-www-form-urlencoded"
	a := do(t, srv, "POST", "/token/", "username=alice&password=alice-pass", form)
	key, _ := a.body["token"].(string)
	if len(key) != 40 {
		t.Fatalf("obtain: %d %v", a.status, a.body)
	}
	do(t, srv, "POST", "/token/", "username=alice&password=wrong-pass", form)
	do(t, srv, "POST", "/api/", "", "Authorization: Token "+key)
	do(t, srv, "POST", "/api/", "", "Authorization: Token "+strings.ToUpper(key))
	do(t, srv, "POST", "/api/", "", "Authorization: "+basic("bob", "bob-pass"))

	// Log in through the page, then fail and pass CSRF with the session.
	page := loginPageOf(t, pages.Get("/api-auth/login/"))
	loginForm := url.Values{"username": {"alice"}, "password": {"alice-pass"}, "csrfmiddlewaretoken": {page.token}}
	resp := post("/api-auth/login/", loginForm.Encode(), "csrftoken="+page.secret)
	session, secret := "", ""
	for _, c := range resp.Cookies() {
		switch c.Name {
		case "sessionid":
			session = c.Value
		case "csrftoken":
			secret = c.Value
		}
	}
	if resp.Status != 302 || session == "" || secret == "" {
		t.Fatalf("login: %d %v", resp.Status, resp.Cookies())
	}
	cookie := "Cookie: sessionid=" + session + "; csrftoken=" + secret
	post("/api-auth/login/", "username=alice&password=wrong-pass&csrfmiddlewaretoken="+secret, "csrftoken="+secret)
	do(t, srv, "POST", "/api/", "", cookie, "X-CSRFToken: "+key)
	do(t, srv, "POST", "/api/", "", cookie, "X-CSRFToken: "+secret, "Origin: https://evil.example/?k="+key)
	do(t, srv, "POST", "/api/", "", cookie, "X-CSRFToken: "+secret)
	post("/api-auth/logout/", "", "sessionid="+session)
	post("/api-auth/logout/", "csrfmiddlewaretoken="+secret, "sessionid="+session+"; csrftoken="+secret)

	// A broken store: the server error is logged.
	w.db.Close()
	do(t, srv, "POST", "/api/", "", "Authorization: Token "+key)

	out := logs.String()
	for _, want := range []string{"Forbidden (CSRF)", "handled", "internal server error"} {
		if !strings.Contains(out, want) {
			t.Errorf("the logs lack %q, so the capture is broken:\n%s", want, out)
		}
	}
	for name, secretValue := range map[string]string{
		"token": key, "upper-case token": strings.ToUpper(key), "session key": session,
		"CSRF secret": secret, "masked CSRF token": page.token, "first CSRF secret": page.secret,
		"password": "alice-pass", "wrong password": "wrong-pass", "inactive user's password": "bob-pass",
	} {
		if strings.Contains(out, secretValue) {
			t.Errorf("the logs contain the %s:\n%s", name, out)
		}
	}
}

type loginPage struct{ token, secret string }

// loginPageOf reads a login page's form token and its csrftoken cookie.
func loginPageOf(t *testing.T, r *apitest.Response) loginPage {
	t.Helper()
	var p loginPage
	if i := strings.Index(r.Body, `name="csrfmiddlewaretoken" value="`); i >= 0 {
		rest := r.Body[i+len(`name="csrfmiddlewaretoken" value="`):]
		p.token = rest[:strings.IndexByte(rest, '"')]
	}
	for _, c := range r.Cookies() {
		if c.Name == "csrftoken" {
			p.secret = c.Value
		}
	}
	if p.token == "" || p.secret == "" {
		t.Fatalf("login page: %d, token %q, cookie %q", r.Status, p.token, p.secret)
	}
	return p
}
