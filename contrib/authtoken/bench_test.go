package authtoken_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// BenchmarkGet measures the read of a token and its user by the key on
// SQLite, as token authentication reads one on every request.
//
//	go test -run '^$' -bench Get -benchmem ./contrib/authtoken/
func BenchmarkGet(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "db.sqlite3"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, append(append([]migrations.Migration{}, auth.Migrations...), authtoken.Migrations...)...); err != nil {
		b.Fatal(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1}}}
	u, err := users.CreateUser(ctx, "alice", "alice@example.com", "pass")
	if err != nil {
		b.Fatal(err)
	}
	tokens := &authtoken.Tokens{DB: db}
	tok, _, err := tokens.GetOrCreate(ctx, u.ID)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got, err := tokens.Get(ctx, tok.Key); err != nil || got.User.ID != u.ID {
			b.Fatal(got, err)
		}
	}
}
