package management_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// note is the model of the commands' tests.
type note struct {
	ID   int    `db:"id"`
	Text string `db:"text" model:"max_length=20,unique"`
}

func (note) Meta() models.Meta { return models.Meta{App: "notes"} }

// notesApp is an app of note in a directory of its own, with a Go file
// of its package.
func notesApp(t *testing.T) *migrations.App {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.go"), []byte("package notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &migrations.App{Label: "notes", Models: []reflect.Type{reflect.TypeFor[note]()}, Dir: dir}
}

// manage runs the migration commands of apps with args; it returns
// stdout, stderr and the exit status.
func manage(t *testing.T, database string, apps []*migrations.App, args ...string) (string, string, int) {
	t.Helper()
	return manageAt(t, "", database, apps, args...)
}

// manageAt is manage with $DRF_COMPAT set to level.
func manageAt(t *testing.T, level, database string, apps []*migrations.App, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &management.Env{Stdout: &stdout, Stderr: &stderr, DatabaseURL: database,
		Getenv: func(name string) string {
			if name == "DRF_COMPAT" {
				return level
			}
			return ""
		}}
	code := management.Execute(context.Background(), env, args,
		management.MakeMigrations(apps...), management.SQLMigrate(apps...))
	return stdout.String(), stderr.String(), code
}

// TestMakeMigrationsCommand: makemigrations writes the app's migration
// as a Go file of its package and reports it as Django does; --dry-run
// and --check write nothing (--check exits 1); a migration the app has
// leaves "No changes detected"; an unknown app or a bad name is a
// CommandError.
func TestMakeMigrationsCommand(t *testing.T) {
	app := notesApp(t)
	apps := []*migrations.App{app}
	path := filepath.Join(app.Dir, "migration_0001_initial.go")
	report := "Migrations for 'notes':\n  " + path + "\n    + Create model note\n"

	// Django 3.2's lines, and a level that does not exist.
	if out, _, code := manageAt(t, "3.14", "", apps, "makemigrations", "--dry-run"); code != 0 || out != strings.Replace(report, "+", "-", 1) {
		t.Errorf("DRF_COMPAT=3.14 makemigrations --dry-run: exit %d, printed %q", code, out)
	}
	if _, stderr, code := manageAt(t, "3.15", "", apps, "makemigrations", "--dry-run"); code != 1 || !strings.Contains(stderr, `DRF_COMPAT="3.15"`) {
		t.Errorf("DRF_COMPAT=3.15 makemigrations: exit %d, stderr %q", code, stderr)
	}

	out, _, code := manage(t, "", apps, "makemigrations", "--dry-run")
	if code != 0 || out != report {
		t.Errorf("--dry-run: exit %d, printed %q, want %q", code, out, report)
	}
	out, stderr, code := manage(t, "", apps, "makemigrations", "--check")
	if code != 1 || out != report || !strings.Contains(stderr, "changes without a migration") {
		t.Errorf("--check: exit %d, printed %q, stderr %q", code, out, stderr)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("--dry-run or --check wrote %s (%v)", path, err)
	}

	out, _, code = manage(t, "", apps, "makemigrations", "notes")
	if code != 0 || out != report {
		t.Errorf("makemigrations: exit %d, printed %q, want %q", code, out, report)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"package notes\n", "func init() {\n\tApp.Add(migrations.Migration{\n\t\tName: \"0001_initial\",",
		`{Name: "text", Column: "text", Kind: models.CharField, Unique: true, MaxLength: 20},`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the migration file lacks %q:\n%s", want, src)
		}
	}

	// What the written file adds when the program is built again.
	m, err := app.MakeMigration("", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	app.Add(*m)
	if out, _, code := manage(t, "", apps, "makemigrations"); code != 0 || out != "No changes detected\n" {
		t.Errorf("makemigrations again: exit %d, printed %q", code, out)
	}
	if out, _, code := manage(t, "", apps, "makemigrations", "notes", "--check"); code != 0 || out != "No changes detected in app 'notes'\n" {
		t.Errorf("makemigrations notes --check: exit %d, printed %q", code, out)
	}

	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"makemigrations", "nope"}, "CommandError: App 'nope' could not be found. Is it in INSTALLED_APPS?\n"},
		{[]string{"makemigrations", "--name", "2x"}, "CommandError: The migration name must be a valid Python identifier.\n"},
	} {
		if _, stderr, code := manage(t, "", apps, c.args...); code != 1 || stderr != c.stderr {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.stderr)
		}
	}
}

// TestSQLMigrateCommand: sqlmigrate prints a migration's SQL for the
// database's dialect as Django 5.2 does (Django 3.2 with DRF_COMPAT=3.14),
// finds it by a prefix of its name, and answers Django's CommandErrors
// for an unknown app or migration.
func TestSQLMigrateCommand(t *testing.T) {
	app := notesApp(t)
	m, err := app.MakeMigration("", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	app.Add(*m)
	app.Add(migrations.Migration{Name: "0002_note_more", Operations: []migrations.Operation{
		migrations.AddField{Model: "note", Field: models.Field{Name: "more", Column: "more", Kind: models.IntegerField, Null: true}},
	}})
	apps := []*migrations.App{app}
	database := "sqlite:///" + filepath.Join(t.TempDir(), "db.sqlite3")

	out, stderr, code := manage(t, database, apps, "sqlmigrate", "notes", "0001")
	want := "BEGIN;\n--\n-- Create model note\n--\n" +
		`CREATE TABLE "notes_note" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "text" varchar(20) NOT NULL UNIQUE);` + "\nCOMMIT;\n"
	if code != 0 || out != want {
		t.Errorf("sqlmigrate notes 0001: exit %d, printed\n%s\nwant\n%s\n%s", code, out, want, stderr)
	}
	out, _, code = manage(t, database, apps, "sqlmigrate", "notes", "0002_note_more")
	if code != 0 || !strings.Contains(out, "\n"+`ALTER TABLE "notes_note" ADD COLUMN "more" integer NULL;`+"\n") {
		t.Errorf("sqlmigrate notes 0002_note_more: exit %d, printed\n%s", code, out)
	}
	out, _, code = manageAt(t, "3.14", database, apps, "sqlmigrate", "notes", "0002_note_more")
	if code != 0 || !strings.Contains(out, `INSERT INTO "new__notes_note" ("id", "text", "more") SELECT "id", "text", NULL FROM "notes_note";`) {
		t.Errorf("DRF_COMPAT=3.14 sqlmigrate notes 0002_note_more: exit %d, printed\n%s", code, out)
	}

	app.Add(migrations.Migration{Name: "0003_x"})
	app.Add(migrations.Migration{Name: "0003_y"})
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"sqlmigrate", "nope", "0001"}, "CommandError: App 'nope' does not have migrations\n"},
		{[]string{"sqlmigrate", "notes", "0009"}, "CommandError: Cannot find a migration matching '0009' from app 'notes'. Is it in INSTALLED_APPS?\n"},
		{[]string{"sqlmigrate", "notes", "0003"}, "CommandError: More than one migration matches '0003' in app 'notes'. Please be more specific.\n"},
	} {
		if _, stderr, code := manage(t, database, apps, c.args...); code != 1 || stderr != c.stderr {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.stderr)
		}
	}
	if out, stderr, code := manage(t, database, apps, "sqlmigrate", "notes", "0003_x"); code != 0 || out != "" || stderr != "No operations found.\n" {
		t.Errorf("sqlmigrate of an empty migration: exit %d, printed %q, stderr %q", code, out, stderr)
	}
}
