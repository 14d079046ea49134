package migrations_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// bigAutoApp is testdata/bigauto's app: the migrations of its Django
// package, as Go values.
func bigAutoApp() *migrations.App {
	a := &migrations.App{Label: "snippets"}
	id := func(kind models.Kind, autoCreated bool) models.Field {
		return models.Field{Name: "id", Column: "id", Kind: kind, PrimaryKey: true, AutoCreated: autoCreated}
	}
	a.Add(migrations.Migration{Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Author", Table: "snippets_author", Fields: []models.Field{
			id(models.AutoField, true),
			{Name: "name", Column: "name", Kind: models.CharField, MaxLength: 50},
		}},
		migrations.CreateModel{Name: "Book", Table: "snippets_book", Fields: []models.Field{
			id(models.AutoField, true),
			{Name: "title", Column: "title", Kind: models.CharField, MaxLength: 50},
			{Name: "author", Column: "author_id", Kind: models.ForeignKey, DBIndex: true,
				Related: &models.Relation{Table: "snippets_author", Column: "id", OnDelete: models.Cascade}},
		}},
	}})
	a.Add(migrations.Migration{Name: "0002_bigauto", Operations: []migrations.Operation{
		migrations.AlterField{Model: "author", Field: id(models.BigAutoField, true)},
		migrations.AlterField{Model: "book", Field: id(models.BigAutoField, true)},
	}})
	a.Add(migrations.Migration{Name: "0003_declared", Operations: []migrations.Operation{
		migrations.AlterField{Model: "book", Field: id(models.BigAutoField, false)},
		migrations.AlterField{Model: "author", Field: id(models.BigAutoField, false)},
	}})
	return a
}

// TestAlterAutoFieldAsDjango alters automatic keys as a project does
// when DEFAULT_AUTO_FIELD becomes BigAutoField (testdata/bigauto): an
// AutoField that Django added (auto_created) made a BigAutoField, the key
// a foreign key points to first, then declared on the model (no longer
// auto_created). sqlmigrate prints Django's SQL: on PostgreSQL the column
// made bigint with, under Django 3.2, a new sequence of its own (Django
// 5.2's identity column alters its sequence's type), the foreign key to
// it dropped, its column altered to bigint, and the constraint added
// back; on SQLite the tables remade, an auto_created id first whatever
// the rendering, and the foreign key's column bigint once its target's
// key is. The Go migrations then leave the tables Django's migrate
// leaves, columns in their order.
func TestAlterAutoFieldAsDjango(t *testing.T) {
	for _, dj := range djangos {
		t.Run(dj.name, func(t *testing.T) {
			djangoAt(t, dj)
			for _, dialect := range []store.Dialect{store.SQLite, store.PostgreSQL} {
				t.Run(dialect.String(), func(t *testing.T) {
					url := "sqlite:///" + filepath.Join(t.TempDir(), "django.sqlite3")
					goURL := filepath.Join(t.TempDir(), "go.sqlite3")
					if dialect == store.PostgreSQL {
						url, goURL = testservers.Postgres(t), testservers.Postgres(t)
					}
					p := newDjangoProject(t, dj, url)
					copyFile(t, "testdata/bigauto/models.py", filepath.Join(p.dir, "snippets", "models.py"))
					app := bigAutoApp()
					state := &migrations.State{App: app.Label}
					for _, m := range app.Migrations() {
						copyFile(t, "testdata/bigauto/"+m.Name+".py", filepath.Join(p.dir, "snippets", "migrations", m.Name+".py"))
						lines, after, err := m.SQL(dj.level, dialect, state)
						if err != nil {
							t.Fatal(err)
						}
						state = after
						compareSQL(t, m.Name, statementsOf(p.run("sqlmigrate", "snippets", m.Name)), statementsOf(migrations.SQLMigrate(lines)))
						p.run("migrate", "snippets", m.Name)
					}
					if out := p.run("makemigrations", "snippets", "--dry-run"); out != "No changes detected in app 'snippets'\n" {
						t.Errorf("Django's makemigrations after the migrations printed %q", out)
					}
					migs := app.Migrations()
					goDB, err := store.Open(goURL)
					if err != nil {
						t.Fatal(err)
					}
					defer goDB.Close()
					if _, err := migrations.Migrate(migrations.WithCompatibility(context.Background(), dj.level), goDB, migs...); err != nil {
						t.Fatal(err)
					}
					djangoDB, err := store.Open(strings.TrimPrefix(url, "sqlite:///"))
					if err != nil {
						t.Fatal(err)
					}
					defer djangoDB.Close()
					if got, want := tablesSchema(t, goDB, bigAutoTables...), tablesSchema(t, djangoDB, bigAutoTables...); got != want {
						t.Errorf("the Go migrations leave:\n%s\nDjango's:\n%s", got, want)
					}
				})
			}
		})
	}
}

// statementsOf are the lines of sqlmigrate's output that are SQL,
// without BEGIN and COMMIT.
func statementsOf(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if l != "" && l != "BEGIN;" && l != "COMMIT;" && !strings.HasPrefix(l, "--") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// bigAutoTables are the tables of testdata/bigauto.
var bigAutoTables = []string{"snippets_author", "snippets_book"}

// tablesSchema describes tables on db: on SQLite their SQL in
// sqlite_master (columns in order), on PostgreSQL their columns in order
// with type and default, constraints and sequences.
func tablesSchema(t *testing.T, db *sqlx.DB, tables ...string) string {
	t.Helper()
	in := "('" + strings.Join(tables, "', '") + "')"
	q := `SELECT "type" || ' ' || "name" || ': ' || COALESCE("sql", '') FROM "sqlite_master" ` +
		`WHERE "tbl_name" IN ` + in + ` ORDER BY "tbl_name", "type", "name"`
	if store.DialectOf(db) == store.PostgreSQL {
		q = `SELECT line FROM (
  SELECT 1 AS k, table_name::text AS t, ordinal_position::int AS o,
    format('column %s.%s %s %s %s', table_name, column_name, data_type, is_nullable, coalesce(column_default, is_identity)) AS line
  FROM information_schema.columns WHERE table_schema = 'public' AND table_name IN ` + in + `
  UNION ALL
  SELECT 2, conrelid::regclass::text, 0, format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
  FROM pg_constraint WHERE conrelid::regclass::text IN ` + in + `
  UNION ALL
  SELECT 3, sequencename::text, 0, 'sequence ' || sequencename || ' ' || data_type::text
  FROM pg_sequences WHERE sequencename LIKE 'snippets_%' OR sequencename LIKE 'books_%'
) s ORDER BY k, t, o, line`
	}
	var lines []string
	if err := db.Select(&lines, q); err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Fatalf("no tables %v", tables)
	}
	return strings.Join(lines, "\n")
}
