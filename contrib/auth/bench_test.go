package auth_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// BenchmarkCheck measures one password check by each hasher with Django's
// parameters (as the first hasher, a wrong password), and the checks that
// must cost as much as a wrong password under DefaultHashers: an unusable
// password and a hash of an algorithm not configured.
//
//	go test -run '^$' -bench Check -benchtime 10x ./contrib/auth/
func BenchmarkCheck(b *testing.B) {
	for _, h := range auth.AllHashers {
		encoded, err := h.Encode("correct horse")
		if err != nil {
			b.Fatal(err)
		}
		hs := auth.Hashers{h}
		b.Run(h.Algorithm(), func(b *testing.B) {
			for b.Loop() {
				hs.Check("battery staple", encoded)
			}
		})
	}
	for name, encoded := range map[string]string{
		"default/unusable": "!l890Qk2vE28Ab6mabJtUJoD6IX4jmJVUhvbNUvbQ",
		"default/unknown":  "md5$salt$0123456789abcdef0123456789abcdef",
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				auth.DefaultHashers.Check("battery staple", encoded)
			}
		})
	}
}

// BenchmarkGet measures the read of a user by its key and by its
// username on SQLite, as authentication reads one on every request.
//
//	go test -run '^$' -bench Get -benchmem ./contrib/auth/
func BenchmarkGet(b *testing.B) {
	ctx := context.Background()
	users, u := benchUser(b)
	b.Run("id", func(b *testing.B) {
		for b.Loop() {
			if _, err := users.Get(ctx, u.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("username", func(b *testing.B) {
		for b.Loop() {
			if _, err := users.GetByUsername(ctx, "alice"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHasPerm measures the first HasPerm of a user read for a
// request on SQLite: the read of its own and its groups' permissions.
//
//	go test -run '^$' -bench HasPerm -benchmem ./contrib/auth/
func BenchmarkHasPerm(b *testing.B) {
	ctx := context.Background()
	users, u := benchUser(b)
	if err := auth.CreatePermissions(ctx, users.DB, auth.Models...); err != nil {
		b.Fatal(err)
	}
	if err := users.GrantPermission(ctx, u, "auth.view_user"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		u.BindDB(users.DB)
		if ok, err := u.HasPerm(ctx, "auth.view_user"); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// benchUser is the user alice in a new SQLite database of auth's tables,
// and the users there.
func benchUser(b *testing.B) (*auth.Users, *auth.User) {
	db, err := store.Open(filepath.Join(b.TempDir(), "db.sqlite3"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := migrations.Migrate(b.Context(), db, auth.Migrations...); err != nil {
		b.Fatal(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1}}}
	u, err := users.CreateUser(b.Context(), "alice", "alice@example.com", "pass")
	if err != nil {
		b.Fatal(err)
	}
	return users, u
}
