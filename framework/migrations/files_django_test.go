package migrations_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/testservers"
)

// TestFileFieldsAsDjango declares a FileField and an ImageField in Go and
// in Django (testdata/snippets/files*.py): a model created with them
// (varchar(100)), then a max_length changed and a blank FileField added
// (its column's empty DEFAULT); makemigrations finds Django's operations,
// sqlmigrate prints Django's SQL on SQLite and PostgreSQL, and the Go
// migrations apply.
func TestFileFieldsAsDjango(t *testing.T) {
	djangoPython(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the test program")
	}
	steps := []struct{ models, name, number string }{{"files1", "initial", "0001"}, {"files2", "longer", "0002"}}
	app := newGoApp(t)
	ops := map[string]string{}
	for _, s := range steps {
		app.models(s.models + ".go.txt")
		ops[s.number] = operationLines(app.mustRun("makemigrations", "--name", s.name))
	}
	app.build()
	if out := app.mustRun("makemigrations"); out != "No changes detected\n" {
		t.Errorf("makemigrations after the last printed %q", out)
	}
	for _, dialect := range []string{"sqlite", "postgresql"} {
		t.Run(dialect, func(t *testing.T) {
			app := &goApp{t: t, dir: app.dir, bin: app.bin}
			url := "sqlite:///" + filepath.Join(t.TempDir(), "django.sqlite3")
			goURL := "sqlite:///" + filepath.Join(t.TempDir(), "go.sqlite3")
			if dialect == "postgresql" {
				url, goURL = testservers.Postgres(t), testservers.Postgres(t)
			}
			dj := newDjangoProject(t, url)
			for _, s := range steps {
				dj.models(s.models + ".py")
				if got, want := ops[s.number], operationLines(dj.run("makemigrations", "snippets", "--name", s.name)); got != want {
					t.Errorf("makemigrations %s found\n%s\nDjango:\n%s", s.number, got, want)
				}
				compareSQL(t, s.number, dj.run("sqlmigrate", "snippets", s.number), app.mustRun("sqlmigrate", "snippets", s.number, "--database", url))
				dj.run("migrate", "snippets", s.number)
			}
			out := app.mustRun("--database", goURL, "migrate")
			if !strings.Contains(out, "Applying snippets.0002_longer... OK\n") {
				t.Errorf("migrate printed\n%s", out)
			}
		})
	}
}
