package sample_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// newDB returns a fresh migrated database file.
func newDB(t *testing.T) *sqlx.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := sample.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// serve returns a client of the sample on a seeded db.
func serve(t *testing.T, db *sqlx.DB, opts ...sample.Option) *apitest.Client {
	t.Helper()
	if err := sample.Seed(context.Background(), db, 10); err != nil {
		t.Fatal(err)
	}
	h, err := sample.New(context.Background(), db, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return apitest.New(t, h)
}

func TestSeed(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	if err := sample.Seed(ctx, db, 100); err != nil {
		t.Fatal(err)
	}
	var b struct {
		Title, Author, Created, Owner string
		Rating                        int
	}
	err := db.GetContext(ctx, &b, `SELECT b."title", b."author", b."rating", strftime('%Y-%m-%dT%H:%M:%SZ', b."created") AS "created", u."username" AS "owner" `+
		`FROM "books" b JOIN "auth_user" u ON u."id" = b."owner_id" WHERE b."id" = 7`)
	if err != nil {
		t.Fatal(err)
	}
	want := b
	want.Title, want.Author, want.Rating, want.Created, want.Owner = "Book 007", "Author 0", 5, "2024-01-01T07:00:00Z", "admin"
	if b != want {
		t.Errorf("book 7 = %+v, want %+v", b, want)
	}

	// Seeding again replaces the books and resets the users, without duplicates.
	if _, err := db.ExecContext(ctx, `UPDATE "auth_user" SET "is_active" = 1, "password" = 'x' WHERE "username" = 'bob'`); err != nil {
		t.Fatal(err)
	}
	if err := sample.Seed(ctx, db, 3); err != nil {
		t.Fatal(err)
	}
	var books, users int
	_ = db.GetContext(ctx, &books, `SELECT count(*) FROM "books"`)
	_ = db.GetContext(ctx, &users, `SELECT count(*) FROM "auth_user"`)
	if books != 3 || users != 3 {
		t.Errorf("after a second seed: %d books, %d users; want 3 and 3", books, users)
	}
	accounts := &auth.Users{DB: db}
	for name, active := range map[string]bool{"admin": true, "alice": true, "bob": false} {
		u, err := accounts.GetByUsername(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if u.Active != active || u.Staff != (name == "admin") || u.Superuser != (name == "admin") {
			t.Errorf("%s: active %v staff %v superuser %v", name, u.Active, u.Staff, u.Superuser)
		}
		if ok, _ := auth.DefaultHashers.Check(name+"-pass", u.Password); !ok {
			t.Errorf("%s's password is not %s-pass", name, name)
		}
	}
}

func TestNewNeedsAMigratedDatabase(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := sample.New(context.Background(), db); err == nil || !strings.Contains(err.Error(), "migrate") {
		t.Errorf("New on an empty database: %v, want an error that says to migrate", err)
	}
}

// TestRemoteUser covers /auth/remote-user/, which the conformance test
// cannot: the remote user comes from a header only when the deployer
// trusts it.
func TestRemoteUser(t *testing.T) {
	const header = "X-Remote-User"
	trusted := serve(t, newDB(t), sample.TrustRemoteUserHeader(header))
	for _, c := range []struct {
		user, want string
		status     int
	}{
		{"alice", `{"username":"alice"}`, http.StatusOK},
		{"carol", `{"username":"carol"}`, http.StatusOK}, // unknown users are created
		{"bob", `{"detail":"Authentication credentials were not provided."}`, http.StatusForbidden},
		{"", `{"detail":"Authentication credentials were not provided."}`, http.StatusForbidden},
	} {
		r := trusted.Get("/auth/remote-user/", header+": "+c.user)
		if r.Status != c.status || r.Body != c.want {
			t.Errorf("trusted %s: %s: %d %s, want %d %s", header, c.user, r.Status, r.Body, c.status, c.want)
		}
	}
	if r := trusted.Get("/whoami/", header+": alice"); r.Status != http.StatusOK || strings.Contains(r.Body, "alice") {
		t.Errorf("the remote user counts outside /auth/remote-user/: %s", r.Body)
	}

	untrusted := serve(t, newDB(t))
	if r := untrusted.Get("/auth/remote-user/", header+": alice"); r.Status != http.StatusForbidden {
		t.Errorf("%s is trusted without TrustRemoteUserHeader: %d %s", header, r.Status, r.Body)
	}
}

// TestAllowedHosts: the sample answers its local hosts, the example.com
// hosts of its host-name versioning and the test client's "testserver";
// any other Host is 400 before any view runs, the login page included, so
// no link or redirect names it. AllowedHosts replaces the list.
func TestAllowedHosts(t *testing.T) {
	c := serve(t, newDB(t))
	for _, host := range []string{"testserver", "localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "v2.example.com", "example.com"} {
		if r := c.Get("/pages/page-number/", "Host: "+host); r.Status != http.StatusOK {
			t.Errorf("%s: %d", host, r.Status)
		}
	}
	login := "username=alice&password=alice-pass&next=http://evil.example/x"
	for _, req := range [][2]string{{"GET", "/pages/page-number/"}, {"GET", "/api-auth/login/"}, {"POST", "/api-auth/login/"}, {"GET", "/nowhere/"}} {
		r := c.Do(req[0], req[1], login, "Host: evil.example", "Content-Type: application/x-www-form-urlencoded")
		if r.Status != http.StatusBadRequest || strings.Contains(r.Body, "evil") {
			t.Errorf("evil.example %s %s: %d %s", req[0], req[1], r.Status, r.Body)
		}
	}
	custom := serve(t, newDB(t), sample.AllowedHosts("api.example.org"))
	if r := custom.Get("/books/", "Host: api.example.org"); r.Status != http.StatusOK {
		t.Errorf("AllowedHosts: api.example.org: %d", r.Status)
	}
	if r := custom.Get("/books/", "Host: localhost"); r.Status != http.StatusBadRequest {
		t.Errorf("AllowedHosts: localhost: %d", r.Status)
	}
}
