package migrations_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/testservers"
)

// TestRenameAsDjango renames fields and models in a migration declared by
// hand (testdata/snippets/rename2.migration.go.txt and
// rename2_migration.py, as Django's makemigrations writes it when told
// yes): a unique column of unique_together, a text column, a positive
// integer (its CHECK), a foreign key to another app's table, a model a
// foreign key points to, and that model itself. makemigrations then finds
// the models up to date, in Go and in Django; sqlmigrate prints the SQL
// of Django 3.2 (DRF_COMPAT=3.14) and of Django 5.2 on SQLite (columns
// renamed, tables of foreign keys remade in Django's column order) and
// PostgreSQL (constraints dropped and made again under their new names,
// but for the CHECK Django 5.2 keeps); the Go migrations apply.
func TestRenameAsDjango(t *testing.T) {
	forEachDjango(t, func(t *testing.T, dj django) {
		app := newGoApp(t, dj.level)
		app.models("rename1.go.txt")
		app.mustRun("makemigrations", "--name", "initial")
		copyFile(t, "testdata/snippets/rename2.migration.go.txt", filepath.Join(app.dir, "snippets", "migration_0002_rename.go"))
		app.models("rename2.go.txt")
		if out := app.mustRun("makemigrations"); out != "No changes detected\n" {
			t.Errorf("makemigrations after the renames printed %q", out)
		}
		for _, dialect := range []string{"sqlite", "postgresql"} {
			t.Run(dialect, func(t *testing.T) {
				app := &goApp{t: t, dir: app.dir, bin: app.bin, level: app.level}
				url := "sqlite:///" + filepath.Join(t.TempDir(), "django.sqlite3")
				goURL := "sqlite:///" + filepath.Join(t.TempDir(), "go.sqlite3")
				if dialect == "postgresql" {
					url, goURL = testservers.Postgres(t), testservers.Postgres(t)
				}
				dj := newDjangoProject(t, dj, url)
				dj.models("rename1.py")
				dj.run("makemigrations", "snippets", "--name", "initial")
				compareSQL(t, "0001", dj.run("sqlmigrate", "snippets", "0001"), app.mustRun("sqlmigrate", "snippets", "0001", "--database", url))
				dj.run("migrate", "snippets", "0001")
				dj.models("rename2.py")
				copyFile(t, "testdata/snippets/rename2_migration.py", filepath.Join(dj.dir, "snippets", "migrations", "0002_rename.py"))
				compareSQL(t, "0002", dj.run("sqlmigrate", "snippets", "0002"), app.mustRun("sqlmigrate", "snippets", "0002", "--database", url))
				dj.run("migrate", "snippets", "0002")
				if out := dj.run("makemigrations", "snippets", "--dry-run"); out != "No changes detected in app 'snippets'\n" {
					t.Errorf("Django's makemigrations after the renames printed %q", out)
				}
				out := app.mustRun("--database", goURL, "migrate")
				if !strings.Contains(out, "Applying snippets.0002_rename... OK\n") {
					t.Errorf("migrate printed\n%s", out)
				}
			})
		}
	})
}
