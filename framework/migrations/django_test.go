package migrations_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// django is one Django the migrations are held equal to: Debian's 3.2
// at compat.DRF314, or conformance/reference/drf318's 5.2 at
// compat.Current.
type django struct {
	name  string
	level compat.Level
	py    pyrun.Level
}

var djangos = []django{
	{"django3.2", compat.DRF314, pyrun.DRF314},
	{"django5.2", compat.Current, pyrun.DRF318},
}

// djangoAt skips the test (fails it when CI_REQUIRE_DJANGO is set) unless
// Debian's python3 has dj's Django and psycopg2.
func djangoAt(t *testing.T, dj django) {
	t.Helper()
	pyrun.Need(t, dj.py, "psycopg2")
}

// forEachDjango runs f in a subtest for each Django, skipping those not
// installed.
func forEachDjango(t *testing.T, f func(t *testing.T, dj django)) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the test program")
	}
	for _, dj := range djangos {
		t.Run(dj.name, func(t *testing.T) {
			djangoAt(t, dj)
			f(t, dj)
		})
	}
}

// djangoProject is a Django project in a temporary directory with the
// snippets app of testdata/snippets (models1.py as its models).
type djangoProject struct {
	t     *testing.T
	level pyrun.Level
	dir   string
	url   string
}

func newDjangoProject(t *testing.T, dj django, url string) *djangoProject {
	djangoAt(t, dj)
	p := &djangoProject{t: t, level: dj.py, dir: t.TempDir(), url: url}
	mustMkdir(t, filepath.Join(p.dir, "snippets", "migrations"))
	copyFile(t, "testdata/snippets/settings.py", filepath.Join(p.dir, "settings.py"))
	for _, f := range []string{"snippets/__init__.py", "snippets/migrations/__init__.py"} {
		writeFile(t, filepath.Join(p.dir, f), "")
	}
	return p
}

// models makes testdata/snippets/NAME the app's models.py.
func (p *djangoProject) models(name string) {
	copyFile(p.t, filepath.Join("testdata/snippets", name), filepath.Join(p.dir, "snippets", "models.py"))
}

// run runs django-admin with args and returns its output.
func (p *djangoProject) run(args ...string) string {
	p.t.Helper()
	cmd := pyrun.Command(p.level, append([]string{"-m", "django"}, args...)...)
	cmd.Dir = p.dir // on sys.path, as python -m puts it
	cmd.Env = append(cmd.Env, "DJANGO_SETTINGS_MODULE=settings", "MIGRATIONS_DATABASE_URL="+p.url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		p.t.Fatalf("django-admin %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// goApp is the test program of testdata/snippets, built in a directory
// of testdata (inside the module, so that it builds with the module's
// dependencies) as a real project builds its manage binary.
type goApp struct {
	t   *testing.T
	dir string
	bin string
	// level is the $DRF_COMPAT the program runs with.
	level compat.Level
}

func newGoApp(t *testing.T, level compat.Level) *goApp {
	dir, err := os.MkdirTemp("testdata", "gen")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := &goApp{t: t, dir: abs, bin: filepath.Join(t.TempDir(), "manage"), level: level}
	mustMkdir(t, filepath.Join(abs, "snippets"))
	mustMkdir(t, filepath.Join(abs, "manage"))
	copyFile(t, "testdata/snippets/app.go.txt", filepath.Join(abs, "snippets", "app.go"))
	main := readFile(t, "testdata/snippets/main.go.txt")
	main = strings.Replace(main, "IMPORT", "github.com/go-drf/drf/framework/migrations/testdata/"+filepath.Base(dir)+"/snippets", 1)
	writeFile(t, filepath.Join(abs, "manage", "main.go"), main)
	return a
}

// models makes testdata/snippets/NAME the app's models.go and builds the
// program with the migrations written so far.
func (a *goApp) models(name string) {
	a.t.Helper()
	copyFile(a.t, filepath.Join("testdata/snippets", name), filepath.Join(a.dir, "snippets", "models.go"))
	a.build()
}

func (a *goApp) build() {
	a.t.Helper()
	cmd := exec.Command("go", "build", "-o", a.bin, "./manage")
	cmd.Dir = a.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		a.t.Fatalf("go build: %v\n%s", err, out)
	}
}

// run runs the program with args; it returns stdout and the exit status.
func (a *goApp) run(args ...string) (string, int) {
	a.t.Helper()
	cmd := exec.Command(a.bin, args...)
	cmd.Dir = a.dir
	cmd.Env = append(os.Environ(), compat.Env+"=")
	if a.level == compat.DRF314 {
		cmd.Env = append(cmd.Env, compat.Env+"=3.14")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		a.t.Fatal(err)
	}
	if code != 0 {
		a.t.Logf("manage %v: exit %d\n%s", args, code, stderr.String())
	}
	return stdout.String(), code
}

func (a *goApp) mustRun(args ...string) string {
	a.t.Helper()
	out, code := a.run(args...)
	if code != 0 {
		a.t.Fatalf("manage %v: exit %d", args, code)
	}
	return out
}

// TestMakeMigrationsAsDjango declares testdata/snippets' model (a field
// of every kind, two foreign keys to auth_user, unique, db_index,
// defaults, null, choices, unique_together, an index) in Go and in Django,
// runs makemigrations on each, and compares what sqlmigrate prints on
// SQLite and on PostgreSQL; then a second migration (columns added,
// altered and removed, an index added), a third (a new model with a
// foreign key to the first, an index removed, a foreign key added,
// columns altered) and a fourth (two new models, one with a foreign key to
// the other, a model deleted, unique_together changed), each compared
// the same way after Django applied the ones before; then applies the Go
// migrations to a real database of each dialect, checks that they are
// recorded in django_migrations, that a row goes in, that makemigrations
// finds nothing more to do, and on SQLite that the tables are those
// Django's migrate leaves. All of it once with DRF_COMPAT=3.14 against
// Django 3.2, once at the default level against Django 5.2.
func TestMakeMigrationsAsDjango(t *testing.T) {
	forEachDjango(t, func(t *testing.T, dj django) { makeMigrationsAsDjango(t, dj) })
}

// makemigrationsPrints are the operations makemigrations prints for
// models1 to models4, on Django 3.2 and on Django 5.2 (whose optimizer
// folds an index, a unique_together and a foreign key into their
// CreateModel, and whose lines have the operation's symbol).
var makemigrationsPrints = map[compat.Level][4]string{
	compat.DRF314: {
		"    - Create model Snippet\n" +
			"    - Create index snippets_sn_title_49bab7_idx on field(s) title, -created of model snippet\n" +
			"    - Alter unique_together for snippet (1 constraint(s))\n",
		"    - Remove field notes from snippet\n" +
			"    - Add field rating to snippet\n" +
			"    - Add field summary to snippet\n" +
			"    - Alter field big on snippet\n" +
			"    - Alter field small on snippet\n" +
			"    - Alter field title on snippet\n" +
			"    - Create index snippet_slug_count on field(s) slug, count of model snippet\n",
		"    - Create model Comment\n" +
			"    - Remove index snippet_slug_count from snippet\n" +
			"    - Add field reviewer to snippet\n" +
			"    - Alter field code on snippet\n" +
			"    - Alter field price on snippet\n" +
			"    - Alter field slug on snippet\n" +
			"    - Add field snippet to comment\n" +
			"    - Alter unique_together for comment (1 constraint(s))\n",
		"    - Create model Label\n" +
			"    - Create model Tag\n" +
			"    - Alter unique_together for snippet (1 constraint(s))\n" +
			"    - Delete model Comment\n" +
			"    - Add field tag to label\n" +
			"    - Alter unique_together for label (1 constraint(s))\n",
	},
	compat.Current: {
		"    + Create model Snippet\n",
		"    - Remove field notes from snippet\n" +
			"    + Add field rating to snippet\n" +
			"    + Add field summary to snippet\n" +
			"    ~ Alter field big on snippet\n" +
			"    ~ Alter field small on snippet\n" +
			"    ~ Alter field title on snippet\n" +
			"    + Create index snippet_slug_count on field(s) slug, count of model snippet\n",
		"    + Create model Comment\n" +
			"    - Remove index snippet_slug_count from snippet\n" +
			"    + Add field reviewer to snippet\n" +
			"    ~ Alter field code on snippet\n" +
			"    ~ Alter field price on snippet\n" +
			"    ~ Alter field slug on snippet\n" +
			"    + Add field snippet to comment\n" +
			"    ~ Alter unique_together for comment (1 constraint(s))\n",
		"    + Create model Tag\n" +
			"    ~ Alter unique_together for snippet (1 constraint(s))\n" +
			"    + Create model Label\n" +
			"    - Delete model Comment\n",
	},
}

func makeMigrationsAsDjango(t *testing.T, dj django) {
	prints := makemigrationsPrints[dj.level]
	app := newGoApp(t, dj.level)
	app.models("models1.go.txt")
	out := app.mustRun("makemigrations")
	want := "Migrations for 'snippets':\n  snippets/migration_0001_initial.go\n" + prints[0]
	if out != want {
		t.Errorf("makemigrations printed\n%s\nwant\n%s", out, want)
	}
	app.build()
	if out := app.mustRun("makemigrations", "snippets"); out != "No changes detected in app 'snippets'\n" {
		t.Errorf("makemigrations again printed %q", out)
	}
	app.models("models2.go.txt")
	out = app.mustRun("makemigrations", "--name", "changes")
	want = "Migrations for 'snippets':\n  snippets/migration_0002_changes.go\n" + prints[1]
	if out != want {
		t.Errorf("makemigrations printed\n%s\nwant\n%s", out, want)
	}
	app.models("models3.go.txt")
	out = app.mustRun("makemigrations", "--name", "more")
	want = "Migrations for 'snippets':\n  snippets/migration_0003_more.go\n" + prints[2]
	if out != want {
		t.Errorf("makemigrations printed\n%s\nwant\n%s", out, want)
	}
	app.models("models4.go.txt")
	out = app.mustRun("makemigrations", "--name", "last")
	want = "Migrations for 'snippets':\n  snippets/migration_0004_last.go\n" + prints[3]
	if out != want {
		t.Errorf("makemigrations printed\n%s\nwant\n%s", out, want)
	}
	app.build()
	if out := app.mustRun("makemigrations"); out != "No changes detected\n" {
		t.Errorf("makemigrations after the fourth printed %q", out)
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
			dj.models("models1.py")
			dj.run("makemigrations", "snippets")
			compareSQL(t, "0001", dj.run("sqlmigrate", "snippets", "0001"), app.mustRun("sqlmigrate", "snippets", "0001", "--database", url))
			dj.run("migrate", "snippets", "0001")
			dj.models("models2.py")
			dj.run("makemigrations", "snippets", "--name", "changes")
			compareSQL(t, "0002", dj.run("sqlmigrate", "snippets", "0002"), app.mustRun("sqlmigrate", "snippets", "0002_changes", "--database", url))
			dj.run("migrate", "snippets", "0002")
			dj.models("models3.py")
			dj.run("makemigrations", "snippets", "--name", "more")
			compareSQL(t, "0003", dj.run("sqlmigrate", "snippets", "0003"), app.mustRun("sqlmigrate", "snippets", "0003", "--database", url))
			dj.run("migrate", "snippets", "0003")
			dj.models("models4.py")
			dj.run("makemigrations", "snippets", "--name", "last")
			compareSQL(t, "0004", dj.run("sqlmigrate", "snippets", "0004"), app.mustRun("sqlmigrate", "snippets", "0004", "--database", url))

			out := app.mustRun("--database", goURL, "migrate")
			want := "Operations to perform:\n  Apply all migrations: auth, snippets\nRunning migrations:\n" +
				"  Applying auth.0001_initial... OK\n  Applying snippets.0001_initial... OK\n  Applying snippets.0002_changes... OK\n" +
				"  Applying snippets.0003_more... OK\n  Applying snippets.0004_last... OK\n"
			if out != want {
				t.Errorf("migrate printed\n%s\nwant\n%s", out, want)
			}
			db, err := store.Open(goURL)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var recorded []string
			if err := db.SelectContext(context.Background(), &recorded,
				`SELECT "app" || '.' || "name" FROM "django_migrations" WHERE "app" = 'snippets' ORDER BY "id"`); err != nil {
				t.Fatal(err)
			}
			if strings.Join(recorded, " ") != "snippets.0001_initial snippets.0002_changes snippets.0003_more snippets.0004_last" {
				t.Errorf("django_migrations records %v", recorded)
			}
			if _, err := db.ExecContext(context.Background(), `INSERT INTO "auth_user" DEFAULT VALUES`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(context.Background(), db.Rebind(`INSERT INTO "snippets_snippet" ("created", "title", "code", `+
				`"language", "owner_id", "linenos", "count", "big", "small", "pos", "posbig", "ratio", "price", "email", "url", "slug", `+
				`"day", "at", "took", "uid", "blob", "tag", "summary") VALUES (?, 't', 'c', 'go', 1, ?, 0, 0, 1, 1, 1, 0.5, 1.25, `+
				`'a@b.c', 'http://x', 's', '2020-01-02', '10:00', '00:00:05', '0b8b9b9a-0d4a-4f34-9d16-2b1c8f8f1a11', ?, 'tag', 'none')`),
				store.FormatTime(testTime), false, []byte("x")); err != nil {
				t.Fatalf("a row of the migrated table: %v", err)
			}
			if out := app.mustRun("--database", goURL, "migrate"); !strings.HasSuffix(out, "  No migrations to apply.\n") {
				t.Errorf("migrate again printed\n%s", out)
			}
			if dialect == "sqlite" {
				// The tables Django's migrate leaves, whose remade ones
				// have the altered and added columns last.
				dj.run("migrate", "snippets", "0004")
				sameSQLiteTables(t, strings.TrimPrefix(url, "sqlite:///"), db, "snippets_%")
			}
		})
	}
}

// compareSQL fails the test where the Go program's sqlmigrate differs
// from Django's, line by line.
func compareSQL(t *testing.T, name, django, got string) {
	t.Helper()
	if got == django {
		return
	}
	dl, gl := strings.Split(django, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(dl), len(gl)); i++ {
		var d, g string
		if i < len(dl) {
			d = dl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if d != g {
			t.Errorf("sqlmigrate %s, line %d:\n django: %s\n     go: %s", name, i+1, d, g)
		}
	}
}
