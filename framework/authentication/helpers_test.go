package authentication_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// world is a database with the demo users, their stores and the schemes.
type world struct {
	db       *sqlx.DB
	users    *auth.Users
	tokens   *authtoken.Tokens
	sessions *sessions.Manager
	alice    *auth.User // active
	bob      *auth.User // inactive
	admin    *auth.User // staff
}

func newWorld(t *testing.T) *world {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	migs := append(append(append([]migrations.Migration{}, auth.Migrations...), authtoken.Migrations...), sessions.Migrations...)
	if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
		t.Fatal(err)
	}
	w := &world{db: db, users: &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}, tokens: &authtoken.Tokens{DB: db}}
	w.sessions = &sessions.Manager{DB: db, Users: w.users, SecretKey: "test-secret-key"}
	if w.alice, err = w.users.CreateUser(ctx, "alice", "alice@example.com", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	w.bob = &auth.User{Username: "bob"}
	if err := w.users.Create(ctx, w.bob, "bob-pass"); err != nil {
		t.Fatal(err)
	}
	if w.admin, err = w.users.CreateSuperuser(ctx, "admin", "", "admin-pass"); err != nil {
		t.Fatal(err)
	}
	return w
}

// token returns u's token key.
func (w *world) token(t *testing.T, u *auth.User) string {
	t.Helper()
	tok, _, err := w.tokens.GetOrCreate(context.Background(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tok.Key
}

func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// whoami answers {"username": NAME or null, "auth": KIND}, where KIND
// names request.Auth's type.
func whoami(_ *framework.View, r *request.Request) (*framework.Response, error) {
	body := map[string]any{"username": nil, "auth": nil}
	if u := r.User(); u.IsAuthenticated() {
		body["username"] = u.GetUsername()
	}
	if tok, ok := r.Auth().(*authtoken.Token); ok {
		body["auth"] = "token of " + tok.User.Username
	}
	return framework.OK(body), nil
}

// serve runs a view with the given schemes and permission, answering GET
// and POST with whoami.
func serve(t *testing.T, perm framework.Permission, schemes ...request.Authenticator) *httptest.Server {
	t.Helper()
	v := apitest.View(framework.View{
		Authentication: framework.Authenticators(schemes...),
		Permissions:    framework.Permissions(perm),
		Get:            whoami,
		Post:           whoami,
		Put:            whoami,
	})
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	return srv
}

type answer struct {
	status    int
	challenge string
	body      map[string]any
	header    http.Header
}

// do sends a request to srv's handler, on srv's host (and over TLS when
// srv is), with the given headers ("Name: value" lines) and no cookies but
// those they give.
func do(t *testing.T, srv *httptest.Server, method, path, body string, headers ...string) answer {
	t.Helper()
	c := apitest.New(t, srv.Config.Handler)
	c.Jar, c.Secure = nil, srv.TLS != nil
	r := c.Do(method, path, body, append([]string{"Host: " + srv.Listener.Addr().String()}, headers...)...)
	a := answer{status: r.Status, challenge: r.Header.Get("WWW-Authenticate"), header: r.Header}
	if r.Body != "" && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		r.Decode(&a.body)
	}
	return a
}

func (a answer) detail() string {
	s, _ := a.body["detail"].(string)
	return s
}
