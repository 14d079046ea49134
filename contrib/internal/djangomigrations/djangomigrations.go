// Package djangomigrations holds contrib's apps' migrations against the
// Django packages they stand for, in tests: each migration's SQL is the
// one Django's sqlmigrate prints, under Debian's Django 3.2 and, where
// conformance/reference/drf318 holds it, Django 5.2, on SQLite and on
// PostgreSQL.
package djangomigrations

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// settings is the Django project's settings.py: the installed apps of
// $INSTALLED_APPS on the database of $MIGRATIONS_DATABASE_URL.
const settings = `import os

from djangodb import database

SECRET_KEY = 'contrib-migrations-test'
INSTALLED_APPS = os.environ['INSTALLED_APPS'].split(',')
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
USE_TZ = True
DATABASES = {'default': database(os.environ['MIGRATIONS_DATABASE_URL'])}
`

// SameAsDjango holds app's migrations equal to those of the Django app
// labelled app.Label, which installedApps (Django's INSTALLED_APPS, its
// dependencies first) installs: app has each migration Django's app has,
// under its name, and on each Django and dialect each one's statements
// are the ones sqlmigrate prints, Django's database migrated to the one
// before as sqlmigrate reads it. Django's operations that run no SQL
// (model options, proxy models, Python code) have no Go operation, so
// the description lines of sqlmigrate's output are not compared. On
// SQLite the tables the Go migrations leave are those Django's migrate
// leaves, column order included. The app's models need no migration more
// (makemigrations finds no changes).
func SameAsDjango(t *testing.T, app *migrations.App, installedApps ...string) {
	t.Helper()
	sameAs(t, app, nil, "", installedApps, "3.2", "5.2")
}

// SameAsDjango32 is SameAsDjango under Django 3.2 only, for an app whose
// Django package at the 5.2 level is a later version than the Go app.
func SameAsDjango32(t *testing.T, app *migrations.App, installedApps ...string) {
	t.Helper()
	sameAs(t, app, nil, "", installedApps, "3.2")
}

// SameAsDjango32After is SameAsDjango32 for an app with foreign keys to
// another app's tables, which SQLite needs to exist when it remakes a
// table: before are that app's migrations, applied first.
func SameAsDjango32After(t *testing.T, before []migrations.Migration, app *migrations.App, installedApps ...string) {
	t.Helper()
	sameAs(t, app, before, "", installedApps, "3.2")
}

// SameAsDjangoAfter is SameAsDjango for an app with foreign keys to
// another app's tables, which SQLite needs to exist when it remakes a
// table: before are that app's migrations, applied first.
func SameAsDjangoAfter(t *testing.T, before []migrations.Migration, app *migrations.App, installedApps ...string) {
	t.Helper()
	sameAs(t, app, before, "", installedApps, "3.2", "5.2")
}

// SameAsDjangoModels is SameAsDjango for an app that no Django package
// holds, with foreign keys to the tables of before's migrations: its
// Django app is the label's package with modelsPy as its models.py,
// installed after installedApps, whose migrations are the ones each
// Django's makemigrations writes for it.
func SameAsDjangoModels(t *testing.T, before []migrations.Migration, app *migrations.App, modelsPy string, installedApps ...string) {
	t.Helper()
	sameAs(t, app, before, modelsPy, append(slices.Clone(installedApps), app.Label), "3.2", "5.2")
}

// djangos are the Django levels: Debian's Django 3.2 (with DRF 3.14 and
// its packages) and the one of conformance/reference/drf318.
var djangos = map[string]pyrun.Level{"3.2": pyrun.DRF314, "5.2": pyrun.DRF318}

// sameAs compares app's migrations with Django's at each of versions,
// before's applied first on SQLite; with modelsPy, those makemigrations
// writes for an app of those models.
func sameAs(t *testing.T, app *migrations.App, before []migrations.Migration, modelsPy string, installedApps []string, versions ...string) {
	t.Helper()
	noChanges(t, app)
	for _, version := range versions {
		level := djangos[version]
		t.Run("django"+version, func(t *testing.T) {
			pyrun.Need(t, level, "psycopg2")
			for _, dialect := range []store.Dialect{store.SQLite, store.PostgreSQL} {
				t.Run(dialect.String(), func(t *testing.T) {
					url := "sqlite:///" + filepath.Join(t.TempDir(), "django.sqlite3")
					if dialect == store.PostgreSQL {
						url = testservers.Postgres(t)
					}
					p := &project{t: t, dir: t.TempDir(), url: url, level: level, env: []string{"DJANGO_SETTINGS_MODULE=settings",
						"INSTALLED_APPS=" + strings.Join(installedApps, ","), "MIGRATIONS_DATABASE_URL=" + url}}
					if err := os.WriteFile(filepath.Join(p.dir, "settings.py"), []byte(settings), 0o644); err != nil {
						t.Fatal(err)
					}
					if modelsPy != "" {
						p.makeApp(app.Label, modelsPy)
					}
					compare(t, p, app, before, level.Compat, dialect)
				})
			}
		})
	}
}

// compare holds each of the Django app's migrations equal to app's at
// level on dialect.
func compare(t *testing.T, p *project, app *migrations.App, before []migrations.Migration, level compat.Level, dialect store.Dialect) {
	state := &migrations.State{App: app.Label}
	for _, name := range p.migrationNames(app.Label) {
		found := app.Find(name)
		if len(found) != 1 || found[0].Name != name {
			t.Errorf("Django's %s.%s is not among the app's migrations", app.Label, name)
			return
		}
		lines, after, err := found[0].SQL(level, dialect, state)
		if err != nil {
			t.Fatal(err)
		}
		state = after
		got, want := statements(migrations.SQLMigrate(lines)), statements(p.run("sqlmigrate", app.Label, name))
		if got != want {
			t.Errorf("sqlmigrate %s %s:\n django:\n%s\n     go:\n%s", app.Label, name, want, got)
		}
		p.run("migrate", app.Label, name)
	}
	if dialect == store.SQLite {
		sameSQLiteSchema(t, p, app, before, level, state)
	}
}

// sameSQLiteSchema holds the tables and indexes of the models of state,
// as app's migrations at level leave them on SQLite after before's,
// equal to the ones Django's migrate left in p's database: sqlite_master
// keeps each one's SQL, so this also holds the columns' order, which a
// remade table may change.
func sameSQLiteSchema(t *testing.T, p *project, app *migrations.App, before []migrations.Migration, level compat.Level, state *migrations.State) {
	t.Helper()
	goDB, err := store.Open(filepath.Join(t.TempDir(), "go.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	defer goDB.Close()
	if _, err := migrations.Migrate(migrations.WithCompatibility(context.Background(), level), goDB, slices.Concat(before, app.Migrations())...); err != nil {
		t.Fatal(err)
	}
	djangoDB, err := store.Open(strings.TrimPrefix(p.url, "sqlite:///"))
	if err != nil {
		t.Fatal(err)
	}
	defer djangoDB.Close()
	for _, m := range state.Models {
		const q = `SELECT "type" || ' ' || "name" || ': ' || COALESCE("sql", '') FROM "sqlite_master" WHERE "tbl_name" = ? ORDER BY "type", "name"`
		var got, want []string
		if err := goDB.Select(&got, q, m.Table); err != nil {
			t.Fatal(err)
		}
		if err := djangoDB.Select(&want, q, m.Table); err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Errorf("Django's migrate left no table %s", m.Table)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s on SQLite:\n django:\n%s\n     go:\n%s", m.Table, strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
	}
}

// noChanges fails t when the app's models differ from the state its
// migrations leave.
func noChanges(t *testing.T, app *migrations.App) {
	t.Helper()
	before, err := app.StateBefore("")
	if err != nil {
		t.Fatal(err)
	}
	current, err := app.Current()
	if err != nil {
		t.Fatal(err)
	}
	ops, err := migrations.Changes(compat.Current, before, current)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		t.Errorf("makemigrations %s would %s", app.Label, op.Describe())
	}
}

// statements are the lines of sqlmigrate's output that are SQL, without
// BEGIN and COMMIT, which Django leaves out of a migration without
// operations.
func statements(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if l != "" && l != "BEGIN;" && l != "COMMIT;" && !strings.HasPrefix(l, "--") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// project is a Django project in a temporary directory, run with
// django-admin at a level.
type project struct {
	t     *testing.T
	dir   string
	url   string // the database's
	level pyrun.Level
	env   []string // the settings' variables
}

// run runs django-admin with args and returns its output.
func (p *project) run(args ...string) string {
	p.t.Helper()
	cmd := pyrun.Command(p.level, append([]string{"-m", "django"}, args...)...)
	cmd.Dir = p.dir
	cmd.Env = append(cmd.Env, p.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		p.t.Fatalf("django-admin %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// makeApp writes the Django app label with modelsPy as its models.py
// in p's directory, and its migrations with makemigrations.
func (p *project) makeApp(label, modelsPy string) {
	p.t.Helper()
	dir := filepath.Join(p.dir, label)
	if err := os.MkdirAll(filepath.Join(dir, "migrations"), 0o755); err != nil {
		p.t.Fatal(err)
	}
	for name, text := range map[string]string{"__init__.py": "", "models.py": modelsPy, filepath.Join("migrations", "__init__.py"): ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
	p.run("makemigrations", label)
}

// migrationNames are the names of the app's migrations, as showmigrations
// lists them.
func (p *project) migrationNames(label string) []string {
	var names []string
	for _, l := range strings.Split(p.run("showmigrations", label), "\n") {
		l = strings.TrimSpace(l)
		if len(l) > 4 && l[0] == '[' {
			names = append(names, strings.TrimSpace(l[3:]))
		}
	}
	if len(names) == 0 {
		p.t.Fatalf("Django's app %s has no migrations", label)
	}
	return names
}
