package migrations_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// crossAppMigrations are testdata/crossapp's migrations as Go values, in
// the order they are applied: the books app's Book has a foreign key to
// the snippets app's Author, whose key becomes a BigAutoField after it.
func crossAppMigrations() []migrations.Migration {
	id := models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true, AutoCreated: true}
	author := models.Field{Name: "author", Column: "author_id", Kind: models.ForeignKey, DBIndex: true,
		Related: &models.Relation{Table: "snippets_author", Column: "id", OnDelete: models.Cascade}}
	return []migrations.Migration{
		{App: "snippets", Name: "0001_initial", Operations: []migrations.Operation{
			migrations.CreateModel{Name: "Author", Table: "snippets_author", Fields: []models.Field{
				id, {Name: "name", Column: "name", Kind: models.CharField, MaxLength: 50}}},
			migrations.CreateModel{Name: "Note", Table: "snippets_note", Fields: []models.Field{id, author}},
		}},
		{App: "books", Name: "0001_initial", Dependencies: [][2]string{{"snippets", "0001_initial"}}, Operations: []migrations.Operation{
			migrations.CreateModel{Name: "Book", Table: "books_book", Fields: []models.Field{
				id, {Name: "title", Column: "title", Kind: models.CharField, MaxLength: 50}, author}},
		}},
		{App: "snippets", Name: "0002_alter_author_id", Operations: []migrations.Operation{
			migrations.AlterField{Model: "author", Field: models.Field{Name: "id", Column: "id", Kind: models.BigAutoField, PrimaryKey: true}},
		}},
		{App: "books", Name: "0002_book_pages", Operations: []migrations.Operation{
			migrations.AddField{Model: "book", Field: models.Field{Name: "pages", Column: "pages", Kind: models.IntegerField, HasDefault: true, Default: "0"}},
		}},
		{App: "books", Name: "0003_alter_book_title", Dependencies: [][2]string{{"snippets", "0002_alter_author_id"}}, Operations: []migrations.Operation{
			migrations.AlterField{Model: "book", Field: models.Field{Name: "title", Column: "title", Kind: models.CharField, MaxLength: 80}},
		}},
	}
}

// TestCrossAppKeyAsDjango alters a primary key that another app's
// foreign key points to (testdata/crossapp): the snippets app's Author
// made a BigAutoField after the books app created Book with a foreign
// key to it, then a column added to Book, then a field of Book altered
// in a migration that depends on Author's. Each migration's sqlmigrate
// is Django's, from the state of the migrations it depends on
// (migrations.StateAt): Author's alteration takes along the foreign key
// of its own app's Note, the books_book SQLite remakes for the added
// column keeps an integer author_id, the one it remakes for the altered
// field has a bigint one. Migrate, as
// Django's migrate, sees the whole project: Book's foreign key is
// dropped, its column made bigint and its constraint added back, and the
// table SQLite remakes next has a bigint author_id; the tables are those
// Django's migrate leaves, at both levels and on both dialects.
func TestCrossAppKeyAsDjango(t *testing.T) {
	tables := []string{"snippets_author", "snippets_note", "books_book"}
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
					writeFile(t, filepath.Join(p.dir, "settings.py"), readFile(t, "testdata/snippets/settings.py")+"INSTALLED_APPS.append('books')\n")
					mustMkdir(t, filepath.Join(p.dir, "books", "migrations"))
					writeFile(t, filepath.Join(p.dir, "books", "__init__.py"), "")
					writeFile(t, filepath.Join(p.dir, "books", "migrations", "__init__.py"), "")
					migs := crossAppMigrations()
					for _, m := range migs {
						copyFile(t, "testdata/crossapp/"+m.App+"/models.py", filepath.Join(p.dir, m.App, "models.py"))
						copyFile(t, "testdata/crossapp/"+m.App+"/"+m.Name+".py", filepath.Join(p.dir, m.App, "migrations", m.Name+".py"))
						before, err := migrations.StateAt(m, migs...)
						if err != nil {
							t.Fatal(err)
						}
						lines, _, err := m.SQL(dj.level, dialect, before)
						if err != nil {
							t.Fatal(err)
						}
						compareSQL(t, m.String(), statementsOf(p.run("sqlmigrate", m.App, m.Name)), statementsOf(migrations.SQLMigrate(lines)))
						p.run("migrate", m.App, m.Name)
					}
					if out := p.run("makemigrations", "--dry-run"); out != "No changes detected\n" {
						t.Errorf("Django's makemigrations after the migrations printed %q", out)
					}
					// Author's table renamed: the books app's foreign key
					// to it is no change (TestRenamedTableAltersNoOtherApp).
					writeFile(t, filepath.Join(p.dir, "snippets", "models.py"), strings.Replace(readFile(t, "testdata/crossapp/snippets/models.py"),
						"max_length=50)\n", "max_length=50)\n\n    class Meta:\n        db_table = 'people'\n", 1))
					if out := p.run("makemigrations", "--dry-run"); !strings.Contains(out, "Rename table for author to people") ||
						strings.Contains(out, "books") {
						t.Errorf("Django's makemigrations after Author's table is renamed printed %q", out)
					}
					copyFile(t, "testdata/crossapp/snippets/models.py", filepath.Join(p.dir, "snippets", "models.py"))
					goDB, err := store.Open(goURL)
					if err != nil {
						t.Fatal(err)
					}
					defer goDB.Close()
					applied, err := migrations.Migrate(migrations.WithCompatibility(context.Background(), dj.level), goDB, migs...)
					if err != nil {
						t.Fatal(err)
					}
					if got := strings.Join(applied, " "); got != "snippets.0001_initial books.0001_initial snippets.0002_alter_author_id books.0002_book_pages books.0003_alter_book_title" {
						t.Errorf("Migrate applied %s", got)
					}
					djangoDB, err := store.Open(strings.TrimPrefix(url, "sqlite:///"))
					if err != nil {
						t.Fatal(err)
					}
					defer djangoDB.Close()
					if got, want := tablesSchema(t, goDB, tables...), tablesSchema(t, djangoDB, tables...); got != want {
						t.Errorf("the Go migrations leave:\n%s\nDjango's:\n%s", got, want)
					}
				})
			}
		})
	}
}

// TestChangesOfAKeyAlterTheKeyOnly holds makemigrations to Django's when a
// primary key becomes a BigAutoField (testdata/crossapp): the snippets
// app gets one AlterField, of the key, and neither its own Note nor the
// books app's Book, whose foreign keys point to it, gets one (Django's
// ForeignKey does not deconstruct its target's type), at both levels.
func TestChangesOfAKeyAlterTheKeyOnly(t *testing.T) {
	states := map[string]*migrations.State{}
	for _, m := range crossAppMigrations()[:2] {
		_, after, err := m.SQL(compat.Current, store.SQLite, &migrations.State{App: m.App})
		if err != nil {
			t.Fatal(err)
		}
		states[m.App] = after
	}
	// The models as declared now: the foreign keys' relations have the
	// kind of the key they point to.
	current := map[string][]*migrations.ModelState{}
	for app, s := range states {
		for _, m := range s.Clone().Models {
			for i := range m.Fields {
				f := &m.Fields[i]
				switch {
				case m.Name == "Author" && f.PrimaryKey:
					*f = models.Field{Name: "id", Column: "id", Kind: models.BigAutoField, PrimaryKey: true}
				case f.Related != nil:
					f.Related.Kind = models.BigAutoField
				}
			}
			current[app] = append(current[app], m)
		}
	}
	for _, level := range []compat.Level{compat.DRF314, compat.Current} {
		for app, want := range map[string]string{"snippets": "Alter field id on author", "books": ""} {
			ops, err := migrations.Changes(level, states[app], current[app])
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, op := range ops {
				got = append(got, op.Describe())
			}
			if strings.Join(got, "; ") != want {
				t.Errorf("%s at %s: makemigrations finds %q, want %q", app, level, got, want)
			}
		}
	}
}

// crossAuthor and crossBook are models of two apps, a foreign key of the
// second pointing to the first, as testdata/crossapp's 0001 migrations.
type crossAuthor struct {
	ID   int    `db:"id"`
	Name string `db:"name" model:"max_length=50"`
}

func (crossAuthor) Meta() models.Meta { return models.Meta{App: "authors", Name: "Author"} }

type crossBook struct {
	ID       int    `db:"id"`
	Title    string `db:"title" model:"max_length=50"`
	AuthorID int    `db:"author_id" model:"foreign_key=authors_author,on_delete=cascade"`
}

func (crossBook) Meta() models.Meta { return models.Meta{App: "books", Name: "Book"} }

// TestMakeMigrationDependsOnOtherApps holds the dependencies
// makemigrations writes to Django's (testdata/crossapp/books): a
// migration creating a foreign key to another app's model depends on
// that app's last migration, which its file lists and Migrate applies
// first, whatever the order given.
func TestMakeMigrationDependsOnOtherApps(t *testing.T) {
	authors := migrations.NewApp("authors", crossAuthor{})
	books := migrations.NewApp("books", crossBook{})
	m, err := books.MakeMigrationAt(compat.Current, "", testTime)
	if err != nil || len(m.Dependencies) != 0 {
		t.Fatalf("before the authors' first migration: %v, %v; want no dependency", m, err)
	}
	first, err := authors.MakeMigrationAt(compat.Current, "", testTime)
	if err != nil {
		t.Fatal(err)
	}
	authors.Add(*first)
	for _, level := range []compat.Level{compat.DRF314, compat.Current} {
		m, err := books.MakeMigrationAt(level, "", testTime)
		if err != nil {
			t.Fatal(err)
		}
		if want := [][2]string{{"authors", "0001_initial"}}; !slices.Equal(m.Dependencies, want) {
			t.Errorf("at %s the books' migration depends on %v, want %v", level, m.Dependencies, want)
		}
		src, err := migrations.Source("books", *m, testTime)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "\t\tDependencies: [][2]string{{\"authors\", \"0001_initial\"}},\n") {
			t.Errorf("the migration's file lacks its dependencies:\n%s", src)
		}
		db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
		if err != nil {
			t.Fatal(err)
		}
		applied, err := migrations.Migrate(context.Background(), db, *m, *first)
		db.Close()
		if err != nil || strings.Join(applied, " ") != "authors.0001_initial books.0001_initial" {
			t.Errorf("Migrate applied %v, %v", applied, err)
		}
	}
	authors.Add(migrations.Migration{Name: "0002_alter_author_id", Operations: []migrations.Operation{
		migrations.AlterField{Model: "author", Field: models.Field{Name: "id", Column: "id", Kind: models.BigAutoField, PrimaryKey: true}}}})
	m, err = books.MakeMigrationAt(compat.Current, "", testTime)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][2]string{{"authors", "0002_alter_author_id"}}; !slices.Equal(m.Dependencies, want) {
		t.Errorf("after the authors' second migration the books' depends on %v, want %v", m.Dependencies, want)
	}
}

// renamedWriter and renamedEssay are models of two apps whose first has
// had its table renamed (Meta.Table) since the migrations below.
type renamedWriter struct {
	ID   int    `db:"id"`
	Name string `db:"name" model:"max_length=50"`
}

func (renamedWriter) Meta() models.Meta {
	return models.Meta{App: "writers", Name: "Writer", Table: "people"}
}

type renamedEssay struct {
	ID       int `db:"id"`
	WriterID int `db:"writer_id" model:"foreign_key=people,on_delete=cascade"`
}

func (renamedEssay) Meta() models.Meta { return models.Meta{App: "essays", Name: "Essay"} }

// TestRenamedTableAltersNoOtherApp holds makemigrations to Django's when
// a model's db_table changes and another app has a foreign key to it:
// the model's app gets its AlterModelTable, and the other app no change,
// before that migration exists and after (Django's ForeignKey
// deconstructs its model, 'writers.writer', never its table), at both
// levels.
func TestRenamedTableAltersNoOtherApp(t *testing.T) {
	writers := migrations.NewApp("writers", renamedWriter{})
	essays := migrations.NewApp("essays", renamedEssay{})
	id := models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true}
	writers.Add(migrations.Migration{Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Writer", Table: "writers_writer", Fields: []models.Field{
			id, {Name: "name", Column: "name", Kind: models.CharField, MaxLength: 50}}}}})
	essays.Add(migrations.Migration{Name: "0001_initial", Dependencies: [][2]string{{"writers", "0001_initial"}},
		Operations: []migrations.Operation{migrations.CreateModel{Name: "Essay", Table: "essays_essay", Fields: []models.Field{
			id, {Name: "writer", Column: "writer_id", Kind: models.ForeignKey, DBIndex: true,
				Related: &models.Relation{Table: "writers_writer", Column: "id", OnDelete: models.Cascade}}}}}})
	describe := func(a *migrations.App, level compat.Level) string {
		m, err := a.MakeMigrationAt(level, "", testTime)
		if err != nil {
			t.Fatal(err)
		}
		if m == nil {
			return ""
		}
		var ops []string
		for _, op := range m.Operations {
			ops = append(ops, op.Describe())
		}
		return strings.Join(ops, "; ")
	}
	for _, level := range []compat.Level{compat.DRF314, compat.Current} {
		if got := describe(writers, level); got != "Rename table for writer to people" {
			t.Errorf("at %s the writers' makemigrations finds %q", level, got)
		}
		if got := describe(essays, level); got != "" {
			t.Errorf("at %s the essays' makemigrations finds %q, want no change", level, got)
		}
	}
	writers.Add(migrations.Migration{Name: "0002_alter_writer_table", Operations: []migrations.Operation{
		migrations.AlterModelTable{Name: "Writer", Table: "people"}}})
	for _, level := range []compat.Level{compat.DRF314, compat.Current} {
		for _, a := range []*migrations.App{writers, essays} {
			if got := describe(a, level); got != "" {
				t.Errorf("at %s after the table's migration, %s's makemigrations finds %q", level, a.Label, got)
			}
		}
	}
}
