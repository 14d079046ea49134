package authtoken_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

var hexKey = regexp.MustCompile(`^[0-9a-f]{40}$`)

// djangoTable is authtoken_token as Django 3.2 with DRF 3.14 leaves it on
// SQLite (read from the reference's database).
const djangoTable = `CREATE TABLE "authtoken_token" ("key" varchar(40) NOT NULL PRIMARY KEY, "created" datetime NOT NULL, ` +
	`"user_id" integer NOT NULL UNIQUE REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED)`

func TestMigrationsAreDjangos(t *testing.T) {
	f := newFixture(t, ":memory:")
	var sql string
	if err := f.db.Get(&sql, `SELECT "sql" FROM "sqlite_master" WHERE "name" = 'authtoken_token'`); err != nil {
		t.Fatal(err)
	}
	if sql != djangoTable {
		t.Errorf("schema:\n%s\nwant:\n%s", sql, djangoTable)
	}
	var names []string
	if err := f.db.Select(&names, `SELECT "name" FROM "django_migrations" WHERE "app" = 'authtoken' ORDER BY "id"`); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != "0001_initial 0002_auto_20160226_1747 0003_tokenproxy 0004_alter_tokenproxy_options" {
		t.Errorf("recorded migrations: %s", got)
	}
}

// A database that Django migrated (its table and its django_migrations
// rows) is recognised: its tokens are served, and nothing is applied but
// DRF 3.18's 0004_alter_tokenproxy_options, which DRF 3.14 lacks and which
// changes no table.
func TestDjangoDatabaseIsRecognised(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, auth.Migrations...); err != nil {
		t.Fatal(err)
	}
	db.MustExec(djangoTable)
	for _, name := range []string{"0001_initial", "0002_auto_20160226_1747", "0003_tokenproxy"} {
		db.MustExec(`INSERT INTO "django_migrations" ("app", "name", "applied") VALUES ('authtoken', ?, '2024-01-01 00:00:00.000000')`, name)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	u, err := users.CreateUser(ctx, "alice", "", "alice-pass")
	if err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO "authtoken_token" ("key", "created", "user_id") VALUES ('481cc80c188115c111fb569b43d8fd366aacb738', '2026-11-22 19:13:44.123456', ?)`, u.ID)
	applied, err := migrations.Migrate(ctx, db, authtoken.Migrations...)
	if err != nil || strings.Join(applied, " ") != "authtoken.0004_alter_tokenproxy_options" {
		t.Fatalf("applied %v (%v) on a Django database", applied, err)
	}
	tok, err := (&authtoken.Tokens{DB: db}).Get(ctx, "481cc80c188115c111fb569b43d8fd366aacb738")
	if err != nil || tok.User.Username != "alice" || !tok.Created.Equal(time.Date(2026, 11, 22, 19, 13, 44, 123456000, time.UTC)) {
		t.Fatalf("Django's token: %+v %v", tok, err)
	}
}

func TestGetOrCreateRegenerateDelete(t *testing.T) {
	f := newFixture(t, ":memory:")
	ctx := context.Background()
	before := time.Now().UTC().Add(-time.Second)
	tok, created, err := f.tokens.GetOrCreate(ctx, f.alice.ID)
	if err != nil || !created || !hexKey.MatchString(tok.Key) || tok.UserID != f.alice.ID || tok.Created.Before(before) {
		t.Fatalf("first GetOrCreate: %+v %v %v", tok, created, err)
	}
	again, created, err := f.tokens.GetOrCreate(ctx, f.alice.ID)
	if err != nil || created || again.Key != tok.Key || !again.Created.Equal(tok.Created) {
		t.Fatalf("second GetOrCreate: %+v %v %v", again, created, err)
	}
	got, err := f.tokens.Get(ctx, tok.Key)
	if err != nil || got.User == nil || got.User.Username != "alice" || got.User.Email != "alice@example.com" {
		t.Fatalf("Get: %+v %v", got, err)
	}
	for _, key := range []string{strings.ToUpper(tok.Key), tok.Key[:39], tok.Key + "0", ""} {
		if _, err := f.tokens.Get(ctx, key); !errors.Is(err, authtoken.ErrNotFound) {
			t.Errorf("Get(%q): %v", key, err)
		}
	}
	fresh, err := f.tokens.Regenerate(ctx, f.alice.ID)
	if err != nil || fresh.Key == tok.Key || !hexKey.MatchString(fresh.Key) {
		t.Fatalf("Regenerate: %+v %v", fresh, err)
	}
	if _, err := f.tokens.Get(ctx, tok.Key); !errors.Is(err, authtoken.ErrNotFound) {
		t.Errorf("old key still valid: %v", err)
	}
	if n := f.count(t, `WHERE "user_id" = ?`, f.alice.ID); n != 1 {
		t.Errorf("%d tokens for alice", n)
	}
	if err := f.tokens.Delete(ctx, fresh.Key); err != nil {
		t.Fatal(err)
	}
	if err := f.tokens.Delete(ctx, fresh.Key); !errors.Is(err, authtoken.ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if _, err := f.tokens.ForUser(ctx, f.alice.ID); !errors.Is(err, authtoken.ErrNotFound) {
		t.Errorf("ForUser after Delete: %v", err)
	}
	if tok, err := f.tokens.Regenerate(ctx, f.bob.ID); err != nil || tok.UserID != f.bob.ID {
		t.Errorf("Regenerate without a token: %+v %v", tok, err)
	}
}

func TestLookupToken(t *testing.T) {
	f := newFixture(t, ":memory:")
	ctx := context.Background()
	tok, _, err := f.tokens.GetOrCreate(ctx, f.bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	u, auth, err := f.tokens.LookupToken(ctx, tok.Key)
	got, ok := auth.(*authtoken.Token)
	if err != nil || u == nil || u.GetUsername() != "bob" || u.IsActive() || !ok || got.Key != tok.Key {
		t.Fatalf("LookupToken: %v %v %v", u, auth, err)
	}
	if u, auth, err := f.tokens.LookupToken(ctx, "nope"); u != nil || auth != nil || err != nil {
		t.Errorf("unknown key: %v %v %v", u, auth, err)
	}
	f.db.Close()
	if _, _, err := f.tokens.LookupToken(ctx, tok.Key); err == nil {
		t.Error("a closed database is not an error")
	}
}

func TestKeysAreRandomHex(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		k := authtoken.GenerateKey()
		if !hexKey.MatchString(k) || seen[k] {
			t.Fatalf("key %q (seen before: %v)", k, seen[k])
		}
		seen[k] = true
	}
}

// Logging or printing a token never shows its key.
func TestTokenIsRedactedInLogs(t *testing.T) {
	f := newFixture(t, ":memory:")
	tok, _, err := f.tokens.GetOrCreate(context.Background(), f.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&b, nil))
	log.Info("auth", "token", tok)
	fmt.Fprint(&b, tok, " ")
	fmt.Fprintf(&b, "%v %s", tok, tok)
	if strings.Contains(b.String(), tok.Key) || !strings.Contains(b.String(), fmt.Sprint(f.alice.ID)) {
		t.Errorf("output %s", b.String())
	}
}

func TestCreationHookAndBackfill(t *testing.T) {
	f := newFixture(t, ":memory:")
	ctx := context.Background()
	if n := f.count(t, ""); n != 0 {
		t.Fatalf("%d tokens before the hook", n)
	}
	authtoken.CreateOnUserCreation(f.users)
	carol, err := f.users.CreateUser(ctx, "carol", "", "carol-pass")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := f.tokens.ForUser(ctx, carol.ID)
	if err != nil || !hexKey.MatchString(tok.Key) {
		t.Fatalf("no token for the new user: %+v %v", tok, err)
	}
	if n := f.count(t, ""); n != 1 {
		t.Errorf("the hook made tokens for existing users too: %d", n)
	}
	// A failed creation leaves no token behind.
	if _, err := f.users.CreateUser(ctx, "carol", "", "x"); !errors.Is(err, auth.ErrUsernameTaken) {
		t.Fatalf("duplicate user: %v", err)
	}
	n, err := f.tokens.Backfill(ctx)
	if err != nil || n != 3 {
		t.Fatalf("Backfill = %d, %v; want 3 (alice, bob, admin)", n, err)
	}
	if n := f.count(t, ""); n != 4 {
		t.Errorf("%d tokens, want 4", n)
	}
	if n, err := f.tokens.Backfill(ctx); err != nil || n != 0 {
		t.Errorf("second Backfill = %d, %v", n, err)
	}
	if again, _ := f.tokens.ForUser(ctx, carol.ID); again.Key != tok.Key {
		t.Error("Backfill replaced an existing token")
	}
}

func TestList(t *testing.T) {
	f := newFixture(t, ":memory:")
	ctx := context.Background()
	for _, u := range []*auth.User{f.alice, f.bob, f.admin} {
		if _, _, err := f.tokens.GetOrCreate(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	toks, total, err := f.tokens.List(ctx, 2, 0)
	if err != nil || total != 3 || len(toks) != 2 || toks[0].User.Username != "admin" || toks[1].User.Username != "bob" {
		t.Fatalf("first page: %v %d %v", toks, total, err)
	}
	toks, _, err = f.tokens.List(ctx, 2, 2)
	if err != nil || len(toks) != 1 || toks[0].User.Username != "alice" {
		t.Fatalf("second page: %v %v", toks, err)
	}
}
