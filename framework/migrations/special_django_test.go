package migrations_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestRunSQLAndGoAsDjango declares a data migration by hand in Go and in
// Django (testdata/snippets/data2.migration.go.txt and
// data2_migration.py): RunSQL of a statement per dialect (one with its
// ";"), RunGo where Django has RunPython, and RunSQL of two statements.
// sqlmigrate prints Django's lines on SQLite and PostgreSQL (the Go
// function as Django's "cannot be written as SQL"); migrate runs them in
// order in the migration's transaction, and records it in
// django_migrations, with the rows Django's migrate leaves.
func TestRunSQLAndGoAsDjango(t *testing.T) {
	forEachDjango(t, func(t *testing.T, dj django) {
		app := newGoApp(t, dj.level)
		app.models("data1.go.txt")
		app.mustRun("makemigrations", "--name", "initial")
		copyFile(t, "testdata/snippets/data2.migration.go.txt", filepath.Join(app.dir, "snippets", "migration_0002_data.go"))
		app.build()
		for _, dialect := range []string{"sqlite", "postgresql"} {
			t.Run(dialect, func(t *testing.T) {
				app := &goApp{t: t, dir: app.dir, bin: app.bin, level: app.level}
				url := "sqlite:///" + filepath.Join(t.TempDir(), "django.sqlite3")
				goURL := "sqlite:///" + filepath.Join(t.TempDir(), "go.sqlite3")
				if dialect == "postgresql" {
					url, goURL = testservers.Postgres(t), testservers.Postgres(t)
				}
				dj := newDjangoProject(t, dj, url)
				dj.models("data1.py")
				dj.run("makemigrations", "snippets", "--name", "initial")
				dj.run("migrate", "snippets", "0001")
				copyFile(t, "testdata/snippets/data2_migration.py", filepath.Join(dj.dir, "snippets", "migrations", "0002_data.py"))
				compareSQL(t, "0002", dj.run("sqlmigrate", "snippets", "0002"), app.mustRun("sqlmigrate", "snippets", "0002", "--database", url))
				dj.run("migrate", "snippets", "0002")
				out := app.mustRun("--database", goURL, "migrate")
				if !strings.Contains(out, "Applying snippets.0002_data... OK\n") {
					t.Errorf("migrate printed\n%s", out)
				}
				names := func(url string) string {
					db, err := store.Open(url)
					if err != nil {
						t.Fatal(err)
					}
					defer db.Close()
					var names []string
					if err := db.Select(&names, `SELECT "name" FROM "snippets_tag" ORDER BY "id"`); err != nil {
						t.Fatal(err)
					}
					var recorded int
					if err := db.Get(&recorded, `SELECT count(*) FROM "django_migrations" WHERE "app" = 'snippets' AND "name" = '0002_data'`); err != nil {
						t.Fatal(err)
					}
					return strings.Join(names, " ") + strings.Repeat(" (recorded)", recorded)
				}
				want := strings.ToUpper(dialect) + " GO (recorded)"
				if got, django := names(goURL), names(url); got != want || django != want {
					t.Errorf("the Go migrations leave %q, Django's %q, want %q", got, django, want)
				}
			})
		}
	})
}

// TestRunGoFails: a RunGo's error stops migrate and rolls the migration
// back, its RunSQL's row too, unrecorded in django_migrations; the
// migration before it stays applied.
func TestRunGoFails(t *testing.T) {
	app := migrations.NewApp("datafail")
	app.Add(migrations.Migration{Name: "0001_initial", Operations: []migrations.Operation{
		migrations.RunSQL{SQL: []string{`CREATE TABLE "datafail_item" ("name" varchar(10) NOT NULL)`}},
	}})
	refused := errors.New("refused")
	app.Add(migrations.Migration{Name: "0002_data", Operations: []migrations.Operation{
		migrations.RunSQL{SQL: []string{`INSERT INTO "datafail_item" ("name") VALUES ('a')`}},
		migrations.RunGo{Func: func(context.Context, *sqlx.Tx) error { return refused }},
	}})
	migs := app.Migrations()
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		if _, err := migrations.Migrate(context.Background(), db, migs...); !errors.Is(err, refused) {
			t.Fatalf("migrate: %v, want the RunGo's error", err)
		}
		var rows, recorded int
		if err := db.Get(&rows, `SELECT count(*) FROM "datafail_item"`); err != nil {
			t.Fatal(err)
		}
		if err := db.Get(&recorded, `SELECT count(*) FROM "django_migrations" WHERE "app" = 'datafail'`); err != nil {
			t.Fatal(err)
		}
		if rows != 0 || recorded != 1 {
			t.Errorf("%d rows and %d migrations recorded, want 0 and 1 (0001_initial)", rows, recorded)
		}
	})
}
