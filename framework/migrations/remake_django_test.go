package migrations_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
)

// remakeApp is testdata/remake's app: the migrations of its Django
// package remake/migrations, as Go values.
func remakeApp() *migrations.App {
	a := &migrations.App{Label: "remake"}
	name := func(max int) models.Field {
		return models.Field{Name: "name", Column: "name", Kind: models.CharField, MaxLength: max}
	}
	note := models.Field{Name: "note", Column: "note", Kind: models.CharField, Blank: true, MaxLength: 20}
	nullNote := note
	nullNote.Null = true
	flag := func(def string) models.Field {
		return models.Field{Name: "flag", Column: "flag", Kind: models.BooleanField, HasDefault: true, Default: def}
	}
	a.Add(migrations.Migration{Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Item", Table: "remake_item", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
			name(50), note,
			{Name: "count", Column: "count", Kind: models.IntegerField, DBIndex: true},
			flag("false"),
		}, UniqueTogether: [][]string{{"name", "note"}}},
	}})
	a.Add(migrations.Migration{Name: "0002_alter_item_name", Operations: []migrations.Operation{
		migrations.AlterField{Model: "item", Field: name(100)},
	}})
	a.Add(migrations.Migration{Name: "0003_more", Operations: []migrations.Operation{
		migrations.AlterField{Model: "item", Field: nullNote},
		migrations.AddField{Model: "item", Field: models.Field{Name: "extra", Column: "extra", Kind: models.IntegerField, HasDefault: true, Default: "0"}},
	}})
	a.Add(migrations.Migration{Name: "0004_last", Operations: []migrations.Operation{
		migrations.RemoveField{Model: "item", Name: "count"},
		migrations.AlterField{Model: "item", Field: flag("true")},
	}})
	return a
}

// TestRemakeAsDjangoMigrate holds SQLite's remade tables to Django's, at
// each level: for each migration of testdata/remake (a field altered
// alone, altered then added, removed then altered), sqlmigrate prints
// the level's Django's SQL, whose new table has the altered or added
// field first (Django's sqlmigrate renders the state after the first
// operation before the one before it), and the table the Go migrations
// leave in sqlite_master is the one Django's migrate leaves, that field
// last (migrate renders the state before each migration).
func TestRemakeAsDjangoMigrate(t *testing.T) {
	project, err := filepath.Abs("testdata/remake")
	if err != nil {
		t.Fatal(err)
	}
	for _, dj := range djangos {
		t.Run(dj.name, func(t *testing.T) {
			djangoAt(t, dj)
			djangoPath := filepath.Join(t.TempDir(), "django.sqlite3")
			django := func(args ...string) string {
				t.Helper()
				cmd := pyrun.Command(dj.py, append([]string{"-m", "django"}, args...)...)
				cmd.Dir = project // on sys.path, as python -m puts it
				cmd.Env = append(cmd.Env, "DJANGO_SETTINGS_MODULE=settings", "MIGRATIONS_DATABASE_PATH="+djangoPath)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("django-admin %v: %v\n%s", args, err, stderr.String())
				}
				return string(out)
			}
			app := remakeApp()
			migs := app.Migrations()
			goDB, err := store.Open(filepath.Join(t.TempDir(), "go.sqlite3"))
			if err != nil {
				t.Fatal(err)
			}
			defer goDB.Close()
			ctx := migrations.WithCompatibility(context.Background(), dj.level)
			state := &migrations.State{App: app.Label}
			for i, m := range migs {
				lines, after, err := m.SQL(dj.level, store.SQLite, state)
				if err != nil {
					t.Fatal(err)
				}
				state = after
				compareSQL(t, m.Name, django("sqlmigrate", "remake", m.Name), migrations.SQLMigrate(lines))
				django("migrate", "remake", m.Name)
				if _, err := migrations.Migrate(ctx, goDB, migs[:i+1]...); err != nil {
					t.Fatal(err)
				}
				sameSQLiteTables(t, djangoPath, goDB, "remake_item")
			}
		})
	}
}

// sameSQLiteTables holds the tables whose names are LIKE pattern, with
// their indexes, equal in db and in the SQLite database at djangoPath,
// which Django migrated: the SQL sqlite_master keeps of each, which
// gives the columns' order.
func sameSQLiteTables(t *testing.T, djangoPath string, db *sqlx.DB, pattern string) {
	t.Helper()
	djangoDB, err := store.Open(djangoPath)
	if err != nil {
		t.Fatal(err)
	}
	defer djangoDB.Close()
	const q = `SELECT "type" || ' ' || "name" || ': ' || COALESCE("sql", '') FROM "sqlite_master" WHERE "tbl_name" LIKE ? ORDER BY "type", "name"`
	var got, want []string
	if err := db.Select(&got, q, pattern); err != nil {
		t.Fatal(err)
	}
	if err := djangoDB.Select(&want, q, pattern); err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s on SQLite:\n django:\n%s\n     go:\n%s", pattern, strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
