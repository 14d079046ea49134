package simplejwt_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/simplejwt"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// secretKey is the SECRET_KEY the tests sign with.
const secretKey = "simplejwt-test-secret-key"

// fixture is a migrated database with the demo users, and an API serving
// the token views under /token/... and a view answering the caller's
// name to JWTAuthentication at /whoami/.
type fixture struct {
	db    *sqlx.DB
	users *auth.Users
	jwt   *simplejwt.JWT
	c     *apitest.Client
	alice *auth.User // active
	bob   *auth.User // inactive
}

// theReferences are the reference's SIMPLE_JWT settings.
var theReferences = simplejwt.Settings{RotateRefreshTokens: true, BlacklistAfterRotation: true, TokenBlacklist: true}

// newFixture serves the tokens of s as simplejwt 5.2 answers them
// (compat.DRF314), which the package's older tests pin.
func newFixture(t *testing.T, dsn string, s simplejwt.Settings) *fixture {
	t.Helper()
	return newFixtureAt(t, dsn, s, compat.DRF314)
}

// newFixtureAt serves the tokens of s answering as the release level
// names (Settings.Compatibility).
func newFixtureAt(t *testing.T, dsn string, s simplejwt.Settings, level compat.Level) *fixture {
	t.Helper()
	s.Compatibility = level
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, slices.Concat(auth.Migrations, simplejwt.Migrations)...); err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, users: &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}}
	if f.alice, err = f.users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	f.bob = &auth.User{Username: "bob"}
	if err := f.users.Create(ctx, f.bob, "bob-pass"); err != nil {
		t.Fatal(err)
	}
	if f.jwt, err = simplejwt.New(db, f.users, secretKey, s); err != nil {
		t.Fatal(err)
	}
	api := framework.NewAPI(db, framework.Settings{Permissions: framework.Permissions(framework.AllowAny{})})
	api.Handle("/token/", f.jwt.ObtainPairView())
	api.Handle("/token/refresh/", f.jwt.RefreshView())
	api.Handle("/token/verify/", f.jwt.VerifyView())
	if s.TokenBlacklist {
		api.Handle("/token/blacklist/", f.jwt.BlacklistView())
	}
	api.Handle("/whoami/", framework.View{
		Name:           "Who Am I",
		Authentication: framework.Authenticators(simplejwt.JWTAuthentication{JWT: f.jwt}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(map[string]string{"username": r.User().GetUsername()}), nil
		},
	})
	f.c = apitest.New(t, api)
	return f
}

// pair obtains alice's pair.
func (f *fixture) pair(t *testing.T) (refresh, access string) {
	t.Helper()
	r := f.c.Post("/token/", `{"username":"alice","password":"alice-pass"}`)
	var p struct{ Refresh, Access string }
	r.Decode(&p)
	if r.Status != 200 || p.Refresh == "" || p.Access == "" {
		t.Fatalf("obtain: %d %s", r.Status, r.Body)
	}
	return p.Refresh, p.Access
}

// payload decodes a token's payload, without checking it: its claims in
// order and their values.
func payload(t *testing.T, token string) (names []string, claims map[string]any) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", token)
	}
	header, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil || !strings.HasSuffix(string(header), `","typ":"JWT"}`) {
		t.Fatalf("header %s (%v), not PyJWT's", header, err)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var ordered simplejwt.Claims
	if err := json.Unmarshal(b, &ordered); err != nil {
		t.Fatal(err)
	}
	for _, c := range ordered {
		names = append(names, c.Name)
	}
	if err := json.Unmarshal(b, &claims); err != nil {
		t.Fatal(err)
	}
	return names, claims
}

// bearer is the Authorization header of a token.
func bearer(token string) string { return "Authorization: Bearer " + token }
