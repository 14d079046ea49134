package auth_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// TestUsersOnPostgres: users are created, read, authenticated and updated
// on PostgreSQL as on SQLite, and a username PostgreSQL cannot store is
// an unknown user, not an error.
func TestUsersOnPostgres(t *testing.T) {
	ctx := context.Background()
	db := testservers.OpenPostgres(t, auth.Migrations...)
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	alice, err := users.CreateUser(ctx, "alice", "Alice@EXAMPLE.com", "pw")
	if err != nil || alice.ID != 1 || alice.Email != "Alice@example.com" {
		t.Fatalf("CreateUser: %+v %v", alice, err)
	}
	if _, err := users.CreateUser(ctx, "alice", "", "pw"); !errors.Is(err, auth.ErrUsernameTaken) {
		t.Errorf("duplicate: %v", err)
	}
	got, err := users.Get(ctx, alice.ID)
	if err != nil || got.Username != "alice" || !got.DateJoined.Equal(alice.DateJoined) || got.LastLogin != nil {
		t.Fatalf("Get: %+v %v", got, err)
	}
	if _, err := users.Authenticate(ctx, "alice", "pw"); err != nil {
		t.Errorf("Authenticate: %v", err)
	}
	for _, name := range []string{"ali\x00ce", "\xffalice"} {
		if _, err := users.Authenticate(ctx, name, "pw"); !errors.Is(err, auth.ErrInvalidCredentials) {
			t.Errorf("Authenticate(%q) = %v, want ErrInvalidCredentials", name, err)
		}
	}
	if err := users.UpdateLastLogin(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, err := users.Get(ctx, alice.ID)
	if err != nil || again.LastLogin == nil || !again.LastLogin.Equal(*got.LastLogin) {
		t.Errorf("last_login %v, want %v (%v)", again.LastLogin, got.LastLogin, err)
	}
	if _, err := users.Get(ctx, 1<<40); !errors.Is(err, auth.ErrNotFound) {
		t.Errorf("Get of an id beyond integer: %v", err)
	}
}
