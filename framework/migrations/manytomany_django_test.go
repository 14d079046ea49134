package migrations_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/testservers"
)

// operationLines are the "    - Create model Tag" lines of makemigrations'
// output ("    ~ Alter field ..." on Django 5.2).
func operationLines(out string) string {
	var ops []string
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 6 && strings.HasPrefix(l, "    ") && strings.ContainsRune("+-~sp", rune(l[4])) && l[5] == ' ' {
			ops = append(ops, l)
		}
	}
	return strings.Join(ops, "\n")
}

// TestManyToManyAsDjango declares many-to-many fields in Go and in Django
// (testdata/snippets/m2m*.py): a model created with one (its through
// table created after it), then the field removed, and fields added to
// the model itself (from_/to_ columns) and to another app's, then the
// model deleted with its through tables; makemigrations finds Django's
// operations and sqlmigrate prints Django's SQL on SQLite and PostgreSQL,
// and the Go migrations apply.
func TestManyToManyAsDjango(t *testing.T) {
	steps := []djangoStep{{"m2m1", "initial", "0001"}, {"m2m2", "changes", "0002"}, {"m2m3", "gone", "0003"}}
	migrateStepsAsDjango(t, steps, "0003_gone")
}

// djangoStep is one migration of a migrateStepsAsDjango run: the models
// of testdata/snippets/MODELS.go.txt and MODELS.py, and the migration's
// name and number.
type djangoStep struct{ models, name, number string }

// migrateStepsAsDjango makes each step's migration with the Go program
// and with Django, and holds them equal: makemigrations' operations, then
// on SQLite and PostgreSQL sqlmigrate's SQL; then the Go migrations apply,
// up to last ("0002_longer"); on each Django.
func migrateStepsAsDjango(t *testing.T, steps []djangoStep, last string) {
	t.Helper()
	forEachDjango(t, func(t *testing.T, dj django) { migrateStepsAs(t, dj, steps, last) })
}

func migrateStepsAs(t *testing.T, dj django, steps []djangoStep, last string) {
	app := newGoApp(t, dj.level)
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
			app := &goApp{t: t, dir: app.dir, bin: app.bin, level: app.level}
			url := "sqlite:///" + filepath.Join(t.TempDir(), "django.sqlite3")
			goURL := "sqlite:///" + filepath.Join(t.TempDir(), "go.sqlite3")
			if dialect == "postgresql" {
				url, goURL = testservers.Postgres(t), testservers.Postgres(t)
			}
			dj := newDjangoProject(t, dj, url)
			for _, s := range steps {
				dj.models(s.models + ".py")
				if got, want := ops[s.number], operationLines(dj.run("makemigrations", "snippets", "--name", s.name)); got != want {
					t.Errorf("makemigrations %s found\n%s\nDjango:\n%s", s.number, got, want)
				}
				compareSQL(t, s.number, dj.run("sqlmigrate", "snippets", s.number), app.mustRun("sqlmigrate", "snippets", s.number, "--database", url))
				dj.run("migrate", "snippets", s.number)
			}
			out := app.mustRun("--database", goURL, "migrate")
			if !strings.Contains(out, "Applying snippets."+last+"... OK\n") {
				t.Errorf("migrate printed\n%s", out)
			}
		})
	}
}
