package apitest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// echo answers what the request carried.
func echo(v *framework.View, r *request.Request) (*framework.Response, error) {
	data, err := r.Data()
	if err != nil {
		return nil, err
	}
	ck, _ := r.Cookie("seen")
	return framework.OK(map[string]any{"host": r.Host, "x": r.Header.Get("X-A"), "data": data, "cookie": ck != nil, "tls": r.TLS != nil}), nil
}

func TestClient(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/echo/", framework.View{Get: echo, Post: echo})
	api.HandleHTTP("/set/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "seen", Value: "1", Path: "/"})
	}))
	c := apitest.New(t, api)
	c.Header.Set("X-A", "default")

	got := c.Post("/echo/", `{"n":1}`).JSON()
	if got["host"] != "testserver" || got["x"] != "default" || got["data"].(map[string]any)["n"] != 1.0 || got["cookie"] != false {
		t.Errorf("post: %v", got)
	}
	if r := c.Post("/echo/", "n=2", "Content-Type: application/x-www-form-urlencoded", "X-A: own", "Host: api.example.com"); r.Status != 200 {
		t.Errorf("form: %d %s", r.Status, r.Body)
	} else if got := r.JSON(); got["host"] != "api.example.com" || got["x"] != "own" {
		t.Errorf("form: %v", got)
	}
	if ck := c.Get("/set/").Cookies(); len(ck) != 1 || ck[0].Name != "seen" || ck[0].Value != "1" {
		t.Errorf("set cookies: %v", ck)
	}
	if c.Cookie("seen") != "1" || c.Get("/echo/").JSON()["cookie"] != true {
		t.Error("the cookie was not kept and sent back")
	}
	c.Secure = true
	if got := c.Get("/echo/").JSON(); got["tls"] != true || got["cookie"] != true {
		t.Errorf("secure: %v", got)
	}
	c.Jar = nil
	if got := c.Get("/echo/").JSON(); got["cookie"] != false {
		t.Errorf("without a jar: %v", got)
	}
	if r := c.Get("/echo"); r.Status != 301 || r.Header.Get("Location") != "/echo/" {
		t.Errorf("redirects are answers: %d %v", r.Status, r.Header)
	}
}

// whoami answers the request's user and auth.
func whoami(v *framework.View, r *request.Request) (*framework.Response, error) {
	return framework.OK(map[string]any{"user": r.User().GetUsername(), "auth": r.Auth()}), nil
}

// ForceAuthenticate replaces the view's schemes, as DRF's
// force_authenticate: the user passes IsAuthenticated on a Token-only view
// and on a view with no scheme at all; nil ends it, and the view's own
// 401 comes back.
func TestForceAuthenticate(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/token/", framework.View{
		Authentication: framework.Authenticators(authentication.Token{Tokens: noTokens{}}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		Get:            whoami,
	})
	api.Handle("/none/", framework.View{
		Authentication: framework.Authenticators(),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		Get:            whoami,
	})
	c := apitest.New(t, api)
	if r := c.Get("/token/"); r.Status != 401 || r.Header.Get("WWW-Authenticate") != "Token" {
		t.Fatalf("before: %d %v %s", r.Status, r.Header, r.Body)
	}
	c.ForceAuthenticate(user("alice"), "tok")
	for _, path := range []string{"/token/", "/none/"} {
		if r := c.Get(path); r.Status != 200 || r.Body != `{"auth":"tok","user":"alice"}` {
			t.Errorf("%s forced: %d %s", path, r.Status, r.Body)
		}
	}
	c.ForceAuthenticate(nil, nil)
	if r := c.Get("/token/"); r.Status != 401 || r.Body != `{"detail":"Authentication credentials were not provided."}` {
		t.Errorf("after: %d %s", r.Status, r.Body)
	}
	c.ForceAuthenticate(user("bob"), nil)
	c.Logout()
	if r := c.Get("/none/"); r.Status != 403 {
		t.Errorf("after Logout: %d %s", r.Status, r.Body)
	}
}

// user is a request.User for tests.
type user string

func (u user) GetUsername() string   { return string(u) }
func (u user) IsAuthenticated() bool { return true }
func (u user) IsActive() bool        { return true }
func (u user) IsStaff() bool         { return false }

// noTokens knows no token.
type noTokens struct{}

func (noTokens) LookupToken(_ context.Context, key string) (request.User, any, error) {
	return nil, nil, nil
}

// Login goes through the login page the API mounts, as a browser would
// (its form's CSRF token, then the credentials), and the session then
// authenticates the client's requests; wrong credentials are refused
// with no session; Logout ends the session through the logout page.
func TestLoginLogout(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, append(append([]migrations.Migration{}, auth.Migrations...), sessions.Migrations...)...); err != nil {
		t.Fatal(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	if _, err := users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	m := &sessions.Manager{DB: db, Users: users, SecretKey: "test-secret-key"}
	api := framework.NewAPI(db, framework.Settings{Authentication: framework.Authenticators(authentication.Session{Sessions: m})})
	api.Handle("/whoami/", framework.View{Permissions: framework.Permissions(framework.IsAuthenticated{}), Get: whoami, Post: whoami})
	api.Route("/api-auth", "rest_framework", func(api *framework.API) {
		api.HandleHTTP("/login/", m.LoginPage(), framework.Named("login"))
		api.HandleHTTP("/logout/", m.LogoutPage(), framework.Named("logout"))
	})
	c := apitest.New(t, m.Middleware(api))
	if c.Login("alice", "wrong") {
		t.Error("a wrong password logged in")
	}
	if r := c.Get("/whoami/"); r.Status != 403 || r.Body != `{"detail":"Authentication credentials were not provided."}` {
		t.Errorf("after a refused login: %d %s", r.Status, r.Body)
	}
	if !c.Login("alice", "alice-pass") {
		t.Fatal("alice could not log in")
	}
	if r := c.Get("/whoami/"); r.Status != 200 || r.JSON()["user"] != "alice" {
		t.Errorf("logged in: %d %s", r.Status, r.Body)
	}
	// The session's unsafe requests still need the CSRF token, as in DRF.
	if r := c.Post("/whoami/", "{}"); r.Status != 403 || r.Body != `{"detail":"CSRF Failed: CSRF token missing."}` {
		t.Errorf("POST without the token: %d %s", r.Status, r.Body)
	}
	sid := c.Cookie("sessionid")
	c.Logout()
	if c.Cookie("sessionid") != "" {
		t.Error("Logout kept the session cookie")
	}
	if r := c.Get("/whoami/"); r.Status != 403 {
		t.Errorf("after Logout: %d %s", r.Status, r.Body)
	}
	// The session itself is gone, not only the client's cookie.
	if r := c.Get("/whoami/", "Cookie: sessionid="+sid); r.Status != 403 {
		t.Errorf("the old session still authenticates: %d %s", r.Status, r.Body)
	}
}
