package authtoken_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

type fixture struct {
	db     *sqlx.DB
	users  *auth.Users
	tokens *authtoken.Tokens
	alice  *auth.User // active, alice@example.com
	bob    *auth.User // inactive
	admin  *auth.User // staff superuser
}

// newFixture opens dsn (":memory:" or a file), migrates it and creates the
// demo users.
func newFixture(t *testing.T, dsn string) *fixture {
	t.Helper()
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	migs := append(append([]migrations.Migration{}, auth.Migrations...), authtoken.Migrations...)
	migs = append(migs, auth.PermissionsMigration("tests", "default_permissions", authtoken.Models...))
	if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, users: &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}, tokens: &authtoken.Tokens{DB: db}}
	if f.alice, err = f.users.CreateUser(ctx, "alice", "alice@example.com", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	f.bob = &auth.User{Username: "bob"}
	if err := f.users.Create(ctx, f.bob, "bob-pass"); err != nil {
		t.Fatal(err)
	}
	if f.admin, err = f.users.CreateSuperuser(ctx, "admin", "", "admin-pass"); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) count(t *testing.T, where string, args ...any) int {
	t.Helper()
	var n int
	if err := f.db.Get(&n, f.db.Rebind(`SELECT count(*) FROM "authtoken_token" `+where), args...); err != nil {
		t.Fatal(err)
	}
	return n
}
