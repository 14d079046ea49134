package management_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/migrations"
)

func TestMigrateCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite3")
	extra := migrations.Migration{App: "books", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE "books_book" ("id" integer PRIMARY KEY)`}}}}
	users := migrations.Migration{App: "auth", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE "auth_user" ("id" integer PRIMARY KEY)`}}}}
	migs := []migrations.Migration{users, extra}
	r := run(t, nil, "", []string{"--database", path, "migrate"}, management.Migrate(migs...))
	want := "Operations to perform:\n  Apply all migrations: auth, books\nRunning migrations:\n" +
		"  Applying auth.0001_initial... OK\n  Applying books.0001_initial... OK\n"
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("first migrate: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", r.code, r.stderr, r.stdout, want)
	}
	r = run(t, nil, "", []string{"--database", path, "migrate", "--noinput"}, management.Migrate(migs...))
	want = "Operations to perform:\n  Apply all migrations: auth, books\nRunning migrations:\n  No migrations to apply.\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("second migrate: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	bad := migrations.Migration{App: "books", Name: "0002_bad", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE "books_book" ("id" integer)`}}}}
	r = run(t, nil, "", []string{"--database", path, "migrate"}, management.Migrate(append(migs, bad)...))
	if r.code != 1 || !strings.HasSuffix(r.stdout, "  Applying books.0002_bad... FAILED\n") ||
		!strings.HasPrefix(r.stderr, "CommandError: migrations: migration books.0002_bad: table \"books_book\" already exists") {
		t.Errorf("failing migrate: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
