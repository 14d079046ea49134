package auth_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// djangoSide runs testdata/usernames.py under one Django.
type djangoSide struct{ level pyrun.Level }

// djangos returns Debian's Django 3.2 and, where
// conformance/reference/drf318 holds it, Django 5.2, each as a subtest of
// t given to fn (pyrun.Levels); a Django that is missing skips its
// subtest, and fails it when CI_REQUIRE_DJANGO is set.
func djangos(t *testing.T, fn func(t *testing.T, d djangoSide)) {
	pyrun.Levels(t, "", func(t *testing.T, level pyrun.Level) { fn(t, djangoSide{level}) })
}

// do runs the script's command cmd with args on the SQLite database at
// dbPath and decodes its answer into answer.
func (d djangoSide) do(t *testing.T, dbPath, cmd string, args, answer any) {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DJANGO_DB", dbPath)
	out := pyrun.Exec(t, d.level, nil, filepath.Join("testdata", "usernames.py"), cmd, string(b))
	if err := json.Unmarshal(out, answer); err != nil {
		t.Fatalf("Django %s %s answered %q: %v", d.level.Django, cmd, out, err)
	}
}

// lookAlikes are names that NFKC changes, and one it keeps.
var lookAlikes = []string{"ａｌｉｃｅ", "ﬁona", "\u212Bsa", "Jose\u0301", "user²", "Ⅻ", "ｶﾀｶﾅ", "ǅemal", "plain"}

// TestUsernamesNormalizedAsDjangos pins the normalization against Django
// 3.2 and 5.2 on one database: create_user stores the NFKC form of each
// look-alike, and the Go side stores the same; each side's authenticate
// finds the user by the stored name and not by the one given at creation
// (ModelBackend does not normalize), on a database the other side wrote;
// createsuperuser refuses a fullwidth ａｄｍｉｎ when admin exists on both
// sides (Django with the IntegrityError of the unique username, the Go
// command with Django's message for a taken name), creating no one.
func TestUsernamesNormalizedAsDjangos(t *testing.T) {
	djangos(t, func(t *testing.T, d djangoSide) {
		ctx := context.Background()
		const password = "look-alike-pass"

		// Django's users in a database Django migrated.
		djangoDB := filepath.Join(t.TempDir(), "django.sqlite3")
		var none any
		d.do(t, djangoDB, "migrate", nil, &none)
		var djangoStored []string
		d.do(t, djangoDB, "create_users", map[string]any{"names": lookAlikes, "password": password}, &djangoStored)

		// The Go side's in a database the Go migrations made.
		goDBPath, goUsers := superuserDB(t)
		goUsers.Hashers = auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}
		var goStored []string
		for _, name := range lookAlikes {
			u, err := goUsers.CreateUser(ctx, name, "", password)
			if err != nil {
				t.Fatalf("CreateUser(%q): %v", name, err)
			}
			goStored = append(goStored, u.Username)
		}
		if !reflect.DeepEqual(goStored, djangoStored) {
			t.Errorf("stored usernames:\n go     %q\n django %q", goStored, djangoStored)
		}

		// Each side authenticates on the other's database, by the stored
		// name and by the name given.
		var tried, want []string
		for i, name := range lookAlikes {
			tried = append(tried, djangoStored[i])
			want = append(want, djangoStored[i])
			if name != djangoStored[i] {
				tried = append(tried, name)
				want = append(want, "")
			}
		}
		var djangoFound []*string
		d.do(t, goDBPath, "authenticate", map[string]any{"names": tried, "password": password}, &djangoFound)
		djangoDBUsers := &auth.Users{DB: openSQLite(t, djangoDB), Hashers: goUsers.Hashers}
		for i, name := range tried {
			var got string
			if djangoFound[i] != nil {
				got = *djangoFound[i]
			}
			if got != want[i] {
				t.Errorf("Django's authenticate(%q) on the Go database found %q, want %q", name, got, want[i])
			}
			u, err := djangoDBUsers.Authenticate(ctx, name, password)
			if got = ""; err == nil {
				got = u.Username
			}
			if got != want[i] {
				t.Errorf("Go's Authenticate(%q) on Django's database found %q (%v), want %q", name, got, err, want[i])
			}
		}

		// createsuperuser with a look-alike of admin, on Django's database.
		var admin string
		d.do(t, djangoDB, "create_superuser", map[string]any{"name": "admin", "password": "admin-pass"}, &admin)
		var stoppedBy *string
		d.do(t, djangoDB, "createsuperuser", map[string]any{"username": "ａｄｍｉｎ", "email": "evil@example.com"}, &stoppedBy)
		if stoppedBy == nil || *stoppedBy != "IntegrityError" {
			t.Errorf("Django's createsuperuser ａｄｍｉｎ was stopped by %v, want IntegrityError", stoppedBy)
		}
		created := 0
		r := run(t, nil, "", []string{"--database", djangoDB, "createsuperuser", "--noinput", "--username", "ａｄｍｉｎ", "--email", "evil@example.com"},
			auth.CreateSuperuserCommand(cheapUsers(&created)))
		if r.code != 1 || r.stderr != "CommandError: Error: That username is already taken.\n" {
			t.Errorf("Go's createsuperuser ａｄｍｉｎ: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		var superusers []string
		if err := djangoDBUsers.DB.Select(&superusers, `SELECT username FROM auth_user WHERE is_superuser`); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(superusers, []string{"admin"}) || created != 0 {
			t.Errorf("superusers %q (%d created by Go), want admin alone", superusers, created)
		}
	})
}

// openSQLite opens the SQLite file at path, closed when t ends.
func openSQLite(t *testing.T, path string) *sqlx.DB {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
