package authentication_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// loginCookies logs u in and returns the Cookie header of the new session
// and the CSRF secret of its csrftoken cookie.
func (w *world) loginCookies(t *testing.T, u *auth.User) (cookie, secret string) {
	t.Helper()
	rec := httptest.NewRecorder()
	if err := w.sessions.Login(rec, httptest.NewRequest("POST", "/api-auth/login/", nil), u); err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Result().Cookies() {
		if cookie != "" {
			cookie += "; "
		}
		cookie += c.Name + "=" + c.Value
		if c.Name == "csrftoken" {
			secret = c.Value
		}
	}
	return cookie, secret
}

// headerScheme is a user's own scheme, as in the sample: it authenticates
// the X-Username header (read as DRF reads it, through HeaderValue); no
// header is "not attempted", an unknown name fails.
type headerScheme struct {
	users *auth.Users
	calls *int
}

func (s headerScheme) Authenticate(r *request.Request) (request.User, any, error) {
	*s.calls++
	name := authentication.HeaderValue(r.Header, "X-Username")
	if name == "" {
		return nil, nil, nil
	}
	u, err := s.users.GetByUsername(r.Context(), name)
	if err != nil {
		return nil, nil, exceptions.AuthenticationFailed("No such user")
	}
	return u, nil, nil
}

// The spec's state table: the first scheme to succeed wins and later ones
// are not consulted; one that does not attempt passes to the next; one that
// fails stops everything. The 401/403 choice follows the first scheme.
func TestOrderedSchemes(t *testing.T) {
	w := newWorld(t)
	key := w.token(t, w.alice)
	session, secret := w.loginCookies(t, w.admin)
	calls := 0
	custom := headerScheme{users: w.users, calls: &calls}
	token := authentication.Token{Tokens: w.tokens}
	basicScheme := authentication.Basic{Users: auth.ModelBackend{Users: w.users}}
	sessionScheme := authentication.Session{Sessions: w.sessions}

	tokenFirst := serve(t, framework.IsAuthenticated{}, token, basicScheme, custom)
	basicFirst := serve(t, framework.IsAuthenticated{}, basicScheme, token)
	sessionFirst := serve(t, framework.IsAuthenticated{}, sessionScheme, token)
	customFirst := serve(t, framework.IsAuthenticated{}, custom, token)
	adminOnly := serve(t, framework.IsAdminUser{}, token, basicScheme)
	open := serve(t, framework.AllowAny{}, sessionScheme, token, basicScheme)

	cases := []struct {
		name      string
		srv       *httptest.Server
		method    string
		headers   []string
		status    int
		challenge string
		detail    string
		user      any
		customRan bool
	}{
		{"first success wins, later schemes not consulted", tokenFirst, "GET",
			[]string{"Authorization: Token " + key, "X-Username: nobody"}, 200, "", "", "alice", false},
		{"not attempted passes to the next scheme", tokenFirst, "GET",
			[]string{"Authorization: " + basic("alice", "alice-pass")}, 200, "", "", "alice", false},
		{"all schemes not attempted reaches the last one", tokenFirst, "GET",
			[]string{"X-Username: admin"}, 200, "", "", "admin", true},
		{"a failure stops at once", tokenFirst, "GET",
			[]string{"Authorization: Token nope", "X-Username: alice"}, 401, "Token", "Invalid token.", nil, false},
		{"a later failure also stops, with the first scheme's challenge", tokenFirst, "GET",
			[]string{"X-Username: nobody"}, 401, "Token", "No such user", nil, true},
		{"anonymous, first scheme Token: 401", tokenFirst, "GET", nil, 401, "Token", "Authentication credentials were not provided.", nil, true},
		{"anonymous, first scheme Basic: 401", basicFirst, "GET", nil, 401, basicRealm, "Authentication credentials were not provided.", nil, false},
		{"anonymous, first scheme Session: 403", sessionFirst, "GET", nil, 403, "", "Authentication credentials were not provided.", nil, false},
		{"failed Token behind Session: 403", sessionFirst, "GET",
			[]string{"Authorization: Token nope"}, 403, "", "Invalid token.", nil, false},
		{"custom scheme without challenge first: 403", customFirst, "GET", nil, 403, "", "Authentication credentials were not provided.", nil, true},
		{"custom scheme failure: 403", customFirst, "GET", []string{"X-Username: nobody"}, 403, "", "No such user", nil, true},
		{"session wins over a bad token behind it", sessionFirst, "GET",
			[]string{"Cookie: " + session, "Authorization: Token nope"}, 200, "", "", "admin", false},
		{"authenticated but denied: 403 whatever the scheme", adminOnly, "GET",
			[]string{"Authorization: Token " + key}, 403, "", "You do not have permission to perform this action.", nil, false},
		{"authenticated by Basic but denied: 403", adminOnly, "GET",
			[]string{"Authorization: " + basic("alice", "alice-pass")}, 403, "", "You do not have permission to perform this action.", nil, false},
		{"anonymous on admin-only: 401", adminOnly, "GET", nil, 401, "Token", "Authentication credentials were not provided.", nil, false},
		{"staff passes admin-only", adminOnly, "GET",
			[]string{"Authorization: " + basic("admin", "admin-pass")}, 200, "", "", "admin", false},
		{"failure stops even when permissions allow anyone", open, "GET",
			[]string{"Authorization: " + basic("alice", "wrong")}, 403, "", "Invalid username/password.", nil, false},
		{"anonymous allowed", open, "GET", nil, 200, "", "", nil, false},
		{"session POST with CSRF token", open, "POST",
			[]string{"Cookie: " + session, "X-CSRFToken: " + secret}, 200, "", "", "admin", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls = 0
			a := do(t, c.srv, c.method, "/", "", c.headers...)
			if a.status != c.status || a.challenge != c.challenge || a.detail() != c.detail {
				t.Fatalf("got %d %q %q, want %d %q %q", a.status, a.challenge, a.detail(), c.status, c.challenge, c.detail)
			}
			if c.status == 200 && a.body["username"] != c.user {
				t.Errorf("username %v, want %v", a.body["username"], c.user)
			}
			if ran := calls > 0; ran != c.customRan {
				t.Errorf("custom scheme consulted: %v, want %v", ran, c.customRan)
			}
		})
	}
}

// An inactive user is never authenticated, by any scheme.
func TestInactiveUsersRejectedByEveryScheme(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	key := w.token(t, w.alice)
	session, secret := w.loginCookies(t, w.alice)
	if _, err := w.db.Exec(`UPDATE "auth_user" SET "is_active" = 0 WHERE "id" = ?`, w.alice.ID); err != nil {
		t.Fatal(err)
	}
	remote := authentication.TrustedHeader("X-Remote-User")
	cases := []struct {
		name    string
		scheme  request.Authenticator
		headers []string
		status  int
		detail  string
	}{
		{"basic", authentication.Basic{Users: auth.ModelBackend{Users: w.users}},
			[]string{"Authorization: " + basic("alice", "alice-pass")}, 401, "Invalid username/password."},
		{"basic, permissive checker", authentication.Basic{Users: inactiveChecker(w)},
			[]string{"Authorization: " + basic("alice", "alice-pass")}, 401, "User inactive or deleted."},
		{"token", authentication.Token{Tokens: w.tokens},
			[]string{"Authorization: Token " + key}, 401, "User inactive or deleted."},
		{"session", authentication.Session{Sessions: w.sessions},
			[]string{"Cookie: " + session, "X-CSRFToken: " + secret}, 403, "Authentication credentials were not provided."},
		{"remote user", authentication.RemoteUser{Users: auth.RemoteUserBackend{Users: w.users}},
			[]string{"X-Remote-User: alice"}, 403, "Authentication credentials were not provided."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := apitest.View(framework.View{
				Authentication: framework.Authenticators(c.scheme),
				Permissions:    framework.Permissions(framework.IsAuthenticated{}),
				Post:           whoami,
			})
			srv := httptest.NewServer(remote(v))
			defer srv.Close()
			a := do(t, srv, "POST", "/", "", c.headers...)
			if a.status != c.status || a.detail() != c.detail {
				t.Errorf("got %d %q, want %d %q", a.status, a.detail(), c.status, c.detail)
			}
		})
	}
	if u, err := w.users.Get(ctx, w.alice.ID); err != nil || u.Active {
		t.Fatalf("alice should still exist, inactive: %+v %v", u, err)
	}
}

// A scheme that breaks (a store error) is a 500, never "anonymous".
func TestStoreErrorsAreServerErrors(t *testing.T) {
	w := newWorld(t)
	srv := serve(t, framework.AllowAny{}, authentication.Token{Tokens: w.tokens}, authentication.Basic{Users: auth.ModelBackend{Users: w.users}})
	w.db.Close()
	for _, h := range []string{"Authorization: Token abc", "Authorization: " + basic("alice", "alice-pass")} {
		if a := do(t, srv, http.MethodGet, "/", "", h); a.status != 500 {
			t.Errorf("%s: %d %v, want 500", h, a.status, a.body)
		}
	}
}
