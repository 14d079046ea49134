package hashedtoken

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// BenchmarkGet measures the read of a live token and its user by the
// key on SQLite, as token authentication reads one on every request.
//
//	go test -run '^$' -bench Get -benchmem ./contrib/hashedtoken/
func BenchmarkGet(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "db.sqlite3"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, append(append([]migrations.Migration{}, auth.Migrations...), Migrations...)...); err != nil {
		b.Fatal(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1}}}
	u, err := users.CreateUser(ctx, "alice", "alice@example.com", "pass")
	if err != nil {
		b.Fatal(err)
	}
	tokens := &Tokens{DB: db}
	key, _, err := tokens.Create(ctx, u.ID, "laptop")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got, err := tokens.Get(ctx, key); err != nil || got.User.ID != u.ID {
			b.Fatal(got, err)
		}
	}
}
