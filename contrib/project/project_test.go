package project_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/project"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// whoami is a project whose one view answers the requester's username.
var whoami = project.Project{SecretKey: "test-key", URLs: func(api *framework.API, _ *sqlx.DB) error {
	api.Handle("/whoami/", framework.View{Name: "Who am I", Get: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		name := ""
		if u := auth.UserOf(r); u != nil {
			name = u.Username
		}
		return framework.OK(map[string]string{"username": name}), nil
	}})
	return nil
}}

func service(t *testing.T, p *project.Project) *apitest.Client {
	t.Helper()
	c, _ := serviceDB(t, p)
	return c
}

// serviceDB is service, and its migrated SQLite database with alice.
func serviceDB(t *testing.T, p *project.Project) (*apitest.Client, *sqlx.DB) {
	t.Helper()
	db, err := store.Open("sqlite:///" + filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	migs, err := p.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
		t.Fatal(err)
	}
	if _, err := (&auth.Users{DB: db}).CreateUser(ctx, "alice", "", "pw-alice"); err != nil {
		t.Fatal(err)
	}
	h, err := p.Handler(db, "")
	if err != nil {
		t.Fatal(err)
	}
	return apitest.New(t, h), db
}

// A project answers as a service startproject began: DRF's default
// authentication (Session, then Basic) and renderers (JSON, then the
// browsable page), Django's security headers, and the login pages.
func TestDRFDefaults(t *testing.T) {
	c := service(t, &whoami)
	r := c.Get("/whoami/", "Authorization: Basic YWxpY2U6cHctYWxpY2U=") // alice:pw-alice
	if r.Status != 200 || r.Body != `{"username":"alice"}` {
		t.Errorf("Basic: %d %s", r.Status, r.Body)
	}
	for name, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
		"Referrer-Policy": "same-origin", "Cross-Origin-Opener-Policy": "same-origin", "Content-Type": "application/json"} {
		if got := r.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	// A wrong password is 403 without a challenge: DRF takes the
	// challenge from the first authenticator, Session, which has none.
	if r := c.Get("/whoami/", "Authorization: Basic YWxpY2U6d3Jvbmc="); r.Status != 403 ||
		r.Header.Get("WWW-Authenticate") != "" ||
		r.Body != `{"detail":"Invalid username/password."}` {
		t.Errorf("a wrong password: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
	if r := c.Get("/whoami/", "Accept: text/html"); r.Status != 200 ||
		!strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || !strings.Contains(r.Body, `href="/api-auth/login/?next=%2Fwhoami%2F"`) {
		t.Errorf("the browsable page: %d %q", r.Status, r.Header.Get("Content-Type"))
	}
	if !c.Login("alice", "pw-alice") {
		t.Fatal("alice cannot log in through /api-auth/login/")
	}
	if r := c.Get("/whoami/"); r.Status != 200 || r.Body != `{"username":"alice"}` {
		t.Errorf("a session: %d %s", r.Status, r.Body)
	}
}

// Settings a project sets replace DRF's defaults, and those it leaves
// keep them.
func TestSettingsOverride(t *testing.T) {
	p := whoami
	p.Settings.Renderers = framework.Renderers(framework.JSONRenderer{})
	c := service(t, &p)
	if r := c.Get("/whoami/", "Accept: text/html"); r.Status != 406 {
		t.Errorf("JSON only: %d %q", r.Status, r.Header.Get("Content-Type"))
	}
	if r := c.Get("/whoami/", "Authorization: Basic YWxpY2U6cHctYWxpY2U="); r.Status != 200 {
		t.Errorf("Basic still: %d %s", r.Status, r.Body)
	}
}

// A project refuses to start without its key or its routes, as Django
// refuses an empty SECRET_KEY.
func TestRefusedSetups(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	noKey := whoami
	noKey.SecretKey = ""
	if _, err := noKey.Handler(db, ""); err == nil || !strings.Contains(err.Error(), "SECRET_KEY") {
		t.Errorf("no key: %v", err)
	}
	if _, err := (&project.Project{SecretKey: "k"}).Handler(db, ""); err == nil || !strings.Contains(err.Error(), "URLs") {
		t.Errorf("no URLs: %v", err)
	}
}

// sqlmigrate prints the migrations of Django's sessions and auth apps,
// which the project installs, as Django 3.2's sqlmigrate does (auth 0012
// remakes auth_user with first_name first after the id).
func TestSQLMigrateDjangoApps(t *testing.T) {
	for _, c := range []struct{ app, name, want string }{
		{"sessions", "0001", "BEGIN;\n--\n-- Create model Session\n--\n" +
			`CREATE TABLE "django_session" ("session_key" varchar(40) NOT NULL PRIMARY KEY, "session_data" text NOT NULL, "expire_date" datetime NOT NULL);` + "\n" +
			`CREATE INDEX "django_session_expire_date_a5c62663" ON "django_session" ("expire_date");` + "\nCOMMIT;\n"},
		{"auth", "0012", "BEGIN;\n--\n-- Alter field first_name on user\n--\n" +
			`CREATE TABLE "new__auth_user" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "first_name" varchar(150) NOT NULL, "password" varchar(128) NOT NULL, "last_login" datetime NULL, "is_superuser" bool NOT NULL, "username" varchar(150) NOT NULL UNIQUE, "last_name" varchar(150) NOT NULL, "email" varchar(254) NOT NULL, "is_staff" bool NOT NULL, "is_active" bool NOT NULL, "date_joined" datetime NOT NULL);` + "\n" +
			`INSERT INTO "new__auth_user" ("id", "password", "last_login", "is_superuser", "username", "last_name", "email", "is_staff", "is_active", "date_joined", "first_name") SELECT "id", "password", "last_login", "is_superuser", "username", "last_name", "email", "is_staff", "is_active", "date_joined", "first_name" FROM "auth_user";` + "\n" +
			`DROP TABLE "auth_user";` + "\n" +
			`ALTER TABLE "new__auth_user" RENAME TO "auth_user";` + "\nCOMMIT;\n"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout := os.Stdout
		os.Stdout = w
		status := whoami.Main([]string{"sqlmigrate", c.app, c.name, "--database", "sqlite:///" + filepath.Join(t.TempDir(), "db.sqlite3")})
		os.Stdout = stdout
		w.Close()
		out, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if status != 0 || string(out) != c.want {
			t.Errorf("sqlmigrate %s %s: status %d\n%s", c.app, c.name, status, out)
		}
	}
}
