package apikey_test

import (
	"bytes"
	"context"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/apikey"
	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// cheap hashes keys fast in tests; Django verifies any iteration count.
var cheap = auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}

// keyFormat is a full key: 8 and 32 letters or digits.
var keyFormat = regexp.MustCompile(`^[A-Za-z0-9]{8}\.[A-Za-z0-9]{32}$`)

// django runs testdata/apikey_side.py, djangorestframework-api-key's own
// code, on the SQLite file or PostgreSQL URL dsn, and returns what it
// prints. It skips without a python3 that has Django 3.2, the package and
// psycopg2, and fails then when CI_REQUIRE_DJANGO is set.
func django(t *testing.T, dsn string, args ...string) string {
	t.Helper()
	pyrun.Need(t, pyrun.DRF314, "rest_framework_api_key, psycopg2")
	t.Setenv("DJANGO_DB", dsn)
	return strings.TrimSpace(string(pyrun.Exec(t, pyrun.DRF314, nil, append([]string{filepath.Join("testdata", "apikey_side.py")}, args...)...)))
}

// dialects runs fn on a fresh SQLite file and a fresh PostgreSQL
// database, each with its dsn.
func dialects(t *testing.T, fn func(t *testing.T, dsn string)) {
	for _, d := range []string{"sqlite", "postgresql"} {
		t.Run(d, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "db.sqlite3")
			if d == "postgresql" {
				dsn = testservers.Postgres(t)
			}
			fn(t, dsn)
		})
	}
}

func open(t *testing.T, dsn string) *sqlx.DB {
	t.Helper()
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func migrate(t *testing.T, db *sqlx.DB) {
	t.Helper()
	if _, err := migrations.Migrate(context.Background(), db, apikey.Migrations...); err != nil {
		t.Fatal(err)
	}
}

// schema describes the API key table, one line each, on either dialect.
func schema(t *testing.T, db *sqlx.DB) []string {
	t.Helper()
	q := `SELECT type || ' ' || name || ': ' || coalesce(sql, '-') FROM sqlite_master WHERE tbl_name = 'rest_framework_api_key_apikey' ORDER BY type, name`
	if store.DialectOf(db) == store.PostgreSQL {
		q = `SELECT line FROM (
  SELECT 1 AS k, ordinal_position::int AS o,
    format('column %s %s%s %s default %s', column_name, data_type, coalesce('(' || character_maximum_length || ')', ''),
      CASE WHEN is_nullable = 'YES' THEN 'NULL' ELSE 'NOT NULL' END, coalesce(column_default, '-')) AS line
  FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'rest_framework_api_key_apikey'
  UNION ALL
  SELECT 2, 0, format('constraint %s %s', conname, pg_get_constraintdef(oid)) FROM pg_constraint
  WHERE conrelid = 'rest_framework_api_key_apikey'::regclass
  UNION ALL
  SELECT 3, 0, 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'rest_framework_api_key_apikey'
) s ORDER BY k, o, line`
	}
	var lines []string
	if err := db.Select(&lines, q); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestTableIsThePackages: the migrations leave the table exactly as
// djangorestframework-api-key's migrations do on each dialect, recorded
// under its names, so that Migrate on a database Django migrated applies
// nothing.
func TestTableIsThePackages(t *testing.T) {
	dialects(t, func(t *testing.T, dsn string) {
		django(t, dsn, "migrate")
		djangoDB := open(t, dsn)
		want := schema(t, djangoDB)
		if len(want) < 3 {
			t.Fatalf("Django's schema: %v", want)
		}
		if applied, err := migrations.Migrate(context.Background(), djangoDB, apikey.Migrations...); err != nil || len(applied) != 0 {
			t.Errorf("Migrate on Django's database applied %v, %v", applied, err)
		}
		goDSN := filepath.Join(t.TempDir(), "go.sqlite3")
		if strings.HasPrefix(dsn, "postgres") {
			goDSN = testservers.Postgres(t)
		}
		goDB := open(t, goDSN)
		migrate(t, goDB)
		got := schema(t, goDB)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("schema:\n%s\nwant (Django's):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// TestKeysAcrossDjangoAndGo: a key rest_framework_api_key creates in
// Django is valid on the Go side, and one the Go side creates is valid in
// Django; a changed secret, a revoked key and an expired one are not.
func TestKeysAcrossDjangoAndGo(t *testing.T) {
	dialects(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		django(t, dsn, "migrate")
		db := open(t, dsn)
		keys := &apikey.Keys{DB: db, Hashers: cheap}

		djangoKey := django(t, dsn, "create", "from django")
		if !keyFormat.MatchString(djangoKey) {
			t.Fatalf("Django's key %q", djangoKey)
		}
		if ok, err := keys.IsValid(ctx, djangoKey); !ok || err != nil {
			t.Errorf("Django's key on Go: %v %v", ok, err)
		}
		k, goKey, err := keys.Create(ctx, "from go", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !keyFormat.MatchString(goKey) || !strings.HasPrefix(goKey, k.Prefix+".") || k.ID != k.Prefix+"."+k.HashedKey ||
			!strings.HasPrefix(k.HashedKey, "pbkdf2_sha256$1000$") || strings.Contains(k.HashedKey, goKey[9:]) {
			t.Errorf("Go's key %q, row %+v", goKey, k)
		}
		if got := django(t, dsn, "check", goKey); got != "True" {
			t.Errorf("Go's key on Django: %s", got)
		}
		for _, bad := range []string{goKey[:len(goKey)-1] + "x", goKey[:8], goKey + "x", "", ".", "\x00." + goKey[9:], strings.ToLower(goKey[:8]) + strings.ToUpper(goKey[8:])} {
			if bad == goKey {
				continue
			}
			if ok, err := keys.IsValid(ctx, bad); ok || err != nil {
				t.Errorf("IsValid(%q) = %v, %v", bad, ok, err)
			}
		}
		if _, err := keys.Revoke(ctx, djangoKey); err != nil {
			t.Fatal(err)
		}
		if ok, _ := keys.IsValid(ctx, djangoKey); ok {
			t.Error("a revoked key is valid on Go")
		}
		if got := django(t, dsn, "check", djangoKey); got != "False" {
			t.Errorf("the key Go revoked, on Django: %s", got)
		}
		past := time.Now().Add(-time.Second)
		_, expired, err := keys.Create(ctx, "expired", &past)
		if err != nil {
			t.Fatal(err)
		}
		future := time.Now().Add(time.Hour)
		_, later, err := keys.Create(ctx, "later", &future)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := keys.IsValid(ctx, expired); ok {
			t.Error("an expired key is valid")
		}
		if ok, _ := keys.IsValid(ctx, later); !ok {
			t.Error("a key that expires in an hour is not valid")
		}
		if got := django(t, dsn, "check", expired) + " " + django(t, dsn, "check", later); got != "False True" {
			t.Errorf("the expiring keys on Django: %s", got)
		}
		for _, name := range []string{"", strings.Repeat("n", 50+1)} {
			if _, _, err := keys.Create(ctx, name, nil); !errors.Is(err, apikey.ErrInvalidName) {
				t.Errorf("Create(%q): %v", name, err)
			}
		}
		if _, _, err := keys.Create(ctx, strings.Repeat("é", 50), nil); err != nil {
			t.Errorf("a name of 50 characters: %v", err)
		}
	})
}

func run(t *testing.T, dsn string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &management.Env{Stdout: &out, Stderr: &errOut, DatabaseURL: dsn}
	code = management.Execute(context.Background(), env, args, apikey.CreateCommand(func(*management.Env) (auth.Hashers, error) { return cheap, nil }), apikey.RevokeCommand())
	return code, out.String(), errOut.String()
}

// TestCommands: create_api_key prints the full key once, on a line of
// its own; revoke_api_key takes the prefix or the key, and an unknown
// prefix is an error, as the reference's commands.
func TestCommands(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "db.sqlite3")
	db := open(t, dsn)
	migrate(t, db)
	keys := &apikey.Keys{DB: db, Hashers: cheap}
	ctx := context.Background()

	code, out, errOut := run(t, dsn, "create_api_key", "ci")
	key := strings.TrimSuffix(out, "\n")
	if code != 0 || errOut != "" || !keyFormat.MatchString(key) {
		t.Fatalf("create_api_key: %d %q %q", code, out, errOut)
	}
	if ok, err := keys.IsValid(ctx, key); !ok || err != nil {
		t.Fatalf("the printed key: %v %v", ok, err)
	}
	if code, out, _ := run(t, dsn, "revoke_api_key", key[:8]); code != 0 || out != `Revoked API key "ci" (`+key[:8]+")\n" {
		t.Errorf("revoke by prefix: %d %q", code, out)
	}
	if ok, _ := keys.IsValid(ctx, key); ok {
		t.Error("the revoked key is valid")
	}
	_, out, _ = run(t, dsn, "create_api_key", "second")
	second := strings.TrimSpace(out)
	if code, _, _ := run(t, dsn, "revoke_api_key", second); code != 0 {
		t.Errorf("revoke by the full key: %d", code)
	}
	if ok, _ := keys.IsValid(ctx, second); ok {
		t.Error("the key revoked by its full text is valid")
	}
	if code, out, errOut := run(t, dsn, "revoke_api_key", "nokey123.abc"); code != 1 || out != "" || errOut != "CommandError: No API key with prefix \"nokey123\"\n" {
		t.Errorf("unknown prefix: %d %q %q", code, out, errOut)
	}
	for _, args := range [][]string{{"create_api_key"}, {"create_api_key", "a", "b"}, {"revoke_api_key"}} {
		if code, _, _ := run(t, dsn, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errOut := run(t, dsn, "create_api_key", strings.Repeat("n", 51)); code != 1 || !strings.Contains(errOut, "1 to 50 characters") {
		t.Errorf("a long name: %d %q", code, errOut)
	}
}

// TestHasAPIKey: the permission reads the key as the package's KeyParser
// does (3.1: Authorization's first word "Api-Key" in any case, then the
// key; 2.0 at compat.DRF314: Authorization split on "Api-Key " into
// exactly two parts; or a header of one's own), allows valid keys only, on objects too, and a
// HasAPIKey without its keys fails registration.
func TestHasAPIKey(t *testing.T) {
	ctx := context.Background()
	db := open(t, ":memory:")
	migrate(t, db)
	keys := &apikey.Keys{DB: db, Hashers: cheap}
	_, key, err := keys.Create(ctx, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	ok := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		if err := v.CheckObjectPermissions(r, key); err != nil {
			return nil, err
		}
		return framework.OK(map[string]bool{"ok": true}), nil
	}
	api := framework.NewAPI(db, framework.Settings{})
	api.Handle("/authorization/", framework.View{Permissions: framework.Permissions(apikey.HasAPIKey{Keys: keys}), Get: ok})
	api.Handle("/header/", framework.View{Permissions: framework.Permissions(apikey.HasAPIKey{Keys: keys, Header: "X-Api-Key"}), Get: ok})
	api.Handle("/authorization-2.0/", framework.View{Permissions: framework.Permissions(apikey.HasAPIKey{Keys: keys, Compatibility: compat.DRF314}), Get: ok})
	c := apitest.New(t, api)
	for _, tc := range []struct {
		path, header string
		status       int
	}{
		// The package's 3.1 KeyParser: the first word, in any case.
		{"/authorization/", "Authorization: Api-Key " + key, 200},
		{"/authorization/", "Authorization: api-key " + key, 200},
		{"/authorization/", "Authorization: Api-Key " + key + "x", 403},
		{"/authorization/", "Authorization: Token " + key, 403},
		{"/authorization/", "Authorization: Api-Key " + key + " Api-Key " + key, 403},
		{"/authorization/", "Authorization: Bearer-Api-Key " + key, 403},
		{"/authorization/", "Authorization: Api-Key", 403},
		{"/authorization/", "X-Api-Key: " + key, 403},
		{"/authorization/", "", 403},
		// 2.0's (compat.DRF314): two parts around "Api-Key ".
		{"/authorization-2.0/", "Authorization: Api-Key " + key, 200},
		{"/authorization-2.0/", "Authorization: api-key " + key, 403},
		{"/authorization-2.0/", "Authorization: Api-Key " + key + " Api-Key " + key, 403},
		{"/authorization-2.0/", "Authorization: Bearer-Api-Key " + key, 200},
		{"/header/", "X-Api-Key: " + key, 200},
		{"/header/", "Authorization: Api-Key " + key, 403},
		{"/header/", "X-Api-Key: Api-Key " + key, 403},
	} {
		var h []string
		if tc.header != "" {
			h = append(h, tc.header)
		}
		if r := c.Get(tc.path, h...); r.Status != tc.status {
			t.Errorf("%s with %q: %d %s, want %d", tc.path, tc.header, r.Status, r.Body, tc.status)
		}
	}
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, `"/nokeys/"`) || !strings.Contains(msg, "HasAPIKey needs Keys") {
			t.Errorf("Handle of a HasAPIKey without keys panicked with %q", msg)
		}
	}()
	api.Handle("/nokeys/", framework.View{Permissions: framework.Permissions(apikey.HasAPIKey{}), Get: ok})
}

// TestSHA512Keys: a key that version 3 of the package hashed with its
// Sha512ApiKeyHasher ("sha512$$" and the hex SHA-512 of the key) is valid.
func TestSHA512Keys(t *testing.T) {
	ctx := context.Background()
	db := open(t, ":memory:")
	migrate(t, db)
	keys := &apikey.Keys{DB: db, Hashers: cheap}
	// python3 -c 'import hashlib; print(hashlib.sha512(b"abcdefgh.0123456789abcdefghijklmnopqrstuv").hexdigest())'
	const key = "abcdefgh.0123456789abcdefghijklmnopqrstuv"
	sum := sha512.Sum512([]byte(key))
	hashed := "sha512$$" + hex.EncodeToString(sum[:])
	db.MustExec(`INSERT INTO "rest_framework_api_key_apikey" ("id", "created", "name", "revoked", "expiry_date", "hashed_key", "prefix") `+
		`VALUES (?, '2024-01-01 00:00:00', 'v3', 0, NULL, ?, 'abcdefgh')`, "abcdefgh."+hashed, hashed)
	for k, want := range map[string]bool{key: true, key + "x": false, "abcdefgh.0123456789abcdefghijklmnopqrstuw": false} {
		if got, err := keys.IsValid(ctx, k); err != nil || got != want {
			t.Errorf("IsValid(%q) = %v, %v; want %v", k, got, err, want)
		}
	}
}

// A key's created is the Keys' clock when they have one (Now), else the
// time of the insert (auto_now_add), in the row as in the key returned.
func TestCreatedByTheClock(t *testing.T) {
	dialects(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		migrate(t, db)
		clock := time.Date(2024, 2, 29, 12, 30, 0, 123456000, time.UTC)
		created := func(k *apikey.APIKey) time.Time {
			t.Helper()
			var at time.Time
			if err := db.Get(&at, db.Rebind(`SELECT "created" FROM "rest_framework_api_key_apikey" WHERE "prefix" = ?`), k.Prefix); err != nil {
				t.Fatal(err)
			}
			return at.UTC()
		}
		k, _, err := (&apikey.Keys{DB: db, Hashers: cheap, Now: func() time.Time { return clock }}).Create(ctx, "clocked", nil)
		if err != nil {
			t.Fatal(err)
		}
		if at := created(k); !at.Equal(clock) || !k.Created.Equal(clock) {
			t.Errorf("with a clock: stored %s, returned %s; want %s", at, k.Created, clock)
		}
		before := time.Now().Add(-time.Second)
		k, _, err = (&apikey.Keys{DB: db, Hashers: cheap}).Create(ctx, "now", nil)
		if err != nil {
			t.Fatal(err)
		}
		if at := created(k); at.Before(before) || !at.Equal(k.Created) {
			t.Errorf("without a clock: stored %s, returned %s; want the time of the insert", at, k.Created)
		}
	})
}
