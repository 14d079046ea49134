package sessions_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// TestSessionsOnPostgres: logins are stored in Django's format, read,
// refreshed, ended by a password change and cleared on PostgreSQL as on
// SQLite.
func TestSessionsOnPostgres(t *testing.T) {
	ctx := context.Background()
	db := testservers.OpenPostgres(t, slices.Concat(auth.Migrations, sessions.Migrations)...)
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	alice, err := users.CreateUser(ctx, "alice", "", "alice-pass")
	if err != nil {
		t.Fatal(err)
	}
	m := &sessions.Manager{DB: db, Users: users, SecretKey: "new-key", SecretKeyFallbacks: []string{"old-key"}}
	rec := httptest.NewRecorder()
	if err := m.Login(rec, httptest.NewRequest("POST", "/", nil), alice); err != nil {
		t.Fatal(err)
	}
	var sid *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == "sessionid" {
			sid = c
		}
	}
	who := func() string {
		r := httptest.NewRequest("GET", "/", nil)
		r.AddCookie(sid)
		u, err := m.SessionUser(r)
		if err != nil {
			t.Fatal(err)
		}
		if u == nil {
			return ""
		}
		return u.GetUsername()
	}
	if sid == nil || who() != "alice" {
		t.Fatalf("login on PostgreSQL: cookie %v, user %q", sid, who())
	}
	var raw string
	if err := db.Get(&raw, `SELECT "session_data" FROM "django_session" WHERE "session_key" = $1`, sid.Value); err != nil {
		t.Fatal(err)
	}
	var data map[string]string
	if err := djangoSigner("new-key").Loads(raw, &data); err != nil || data["_auth_user_id"] != "1" {
		t.Errorf("stored %q: %v, %v", raw, data, err)
	}
	// An auth hash of the fallback key is rewritten with the current one.
	data["_auth_user_hash"] = sessions.AuthHash(alice, "old-key")
	old, _ := djangoSigner("new-key").Dumps(data, true, time.Now())
	db.MustExec(`UPDATE "django_session" SET "session_data" = $1`, old)
	if who() != "alice" {
		t.Fatal("a fallback hash did not log in")
	}
	if err := db.Get(&raw, `SELECT "session_data" FROM "django_session"`); err != nil || raw == old {
		t.Errorf("the fallback hash was not replaced (%v)", err)
	}
	// A password change ends the session.
	if err := users.SetPassword(ctx, alice, "new-pass"); err != nil {
		t.Fatal(err)
	}
	if got := who(); got != "" {
		t.Errorf("after a password change: %q", got)
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM "django_session"`); err != nil || n != 0 {
		t.Errorf("%d sessions left, %v", n, err)
	}
	db.MustExec(`INSERT INTO "django_session" VALUES ($1, $2, $3)`, "expired0000000000000000000000000", old, store.FormatTime(time.Now().Add(-time.Minute)))
	if n, err := m.ClearExpired(ctx); err != nil || n != 1 {
		t.Errorf("ClearExpired = %d, %v", n, err)
	}
}
