package migrations_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

type record struct {
	App     string `db:"app"`
	Name    string `db:"name"`
	Applied string `db:"applied"`
}

func records(t *testing.T, db *sqlx.DB) []record {
	t.Helper()
	var rs []record
	if err := db.Select(&rs, `SELECT app, name, CAST(applied AS text) AS applied FROM django_migrations ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	return rs
}

func tables(t *testing.T, db *sqlx.DB) []string {
	t.Helper()
	var names []string
	if err := db.Select(&names, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`); err != nil {
		t.Fatal(err)
	}
	return names
}

var demo = []migrations.Migration{
	{App: "shop", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE "shop_item" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT)`}}}},
	{App: "shop", Name: "0002_price", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`ALTER TABLE "shop_item" ADD COLUMN "price" integer NOT NULL DEFAULT 0`}}}},
}

func openFile(t *testing.T) *sqlx.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestMigrateAppliesOnceAndRecords(t *testing.T) {
	ctx := context.Background()
	db := openFile(t)
	applied, err := migrations.Migrate(ctx, db, demo...)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"shop.0001_initial", "shop.0002_price"}; !reflect.DeepEqual(applied, want) {
		t.Errorf("applied = %v, want %v", applied, want)
	}
	rs := records(t, db)
	if len(rs) != 2 || rs[0].App != "shop" || rs[0].Name != "0001_initial" || rs[1].Name != "0002_price" {
		t.Fatalf("records = %+v", rs)
	}
	if len(rs[0].Applied) < len("2006-01-02 15:04:05") || rs[0].Applied[10] != ' ' {
		t.Errorf("applied timestamp %q is not Django's format", rs[0].Applied)
	}
	db.MustExec(`INSERT INTO shop_item (price) VALUES (3)`)

	again, err := migrations.Migrate(ctx, db, demo...)
	if err != nil || len(again) != 0 {
		t.Errorf("second run applied %v, %v; want nothing", again, err)
	}
	if n := len(records(t, db)); n != 2 {
		t.Errorf("%d records after the second run, want 2", n)
	}
}

func TestMigrateSkipsWhatDjangoRecorded(t *testing.T) {
	ctx := context.Background()
	db := openFile(t)
	// The table exactly as Django creates it, with Django's record of 0001.
	db.MustExec(`CREATE TABLE "django_migrations" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, "name" varchar(255) NOT NULL, "applied" datetime NOT NULL)`)
	db.MustExec(`INSERT INTO django_migrations (app, name, applied) VALUES ('shop', '0001_initial', '2026-11-22 19:03:05.375514')`)
	db.MustExec(`CREATE TABLE "shop_item" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT)`)
	applied, err := migrations.Migrate(ctx, db, demo...)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"shop.0002_price"}; !reflect.DeepEqual(applied, want) {
		t.Errorf("applied = %v, want %v", applied, want)
	}
}

func TestMigrateRollsBackAndStops(t *testing.T) {
	ctx := context.Background()
	db := openFile(t)
	boom := errors.New("boom")
	migs := []migrations.Migration{
		demo[0],
		{App: "shop", Name: "0002_broken", Operations: []migrations.Operation{migrations.RunGo{Func: func(ctx context.Context, tx *sqlx.Tx) error {
			if _, err := tx.ExecContext(ctx, `CREATE TABLE "shop_half" ("id" integer)`); err != nil {
				return err
			}
			return boom
		}}}},
		{App: "shop", Name: "0003_never", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{`CREATE TABLE "shop_never" ("id" integer)`}}}},
	}
	applied, err := migrations.Migrate(ctx, db, migs...)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	var me *migrations.MigrationError
	if !errors.As(err, &me) || me.Migration.Name != "0002_broken" {
		t.Errorf("err = %#v, want a MigrationError for 0002_broken", err)
	}
	if err.Error() != "migrations: migration shop.0002_broken: boom" {
		t.Errorf("message = %q", err.Error())
	}
	if want := []string{"shop.0001_initial"}; !reflect.DeepEqual(applied, want) {
		t.Errorf("applied = %v, want %v", applied, want)
	}
	if got, want := tables(t, db), []string{"django_migrations", "shop_item"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tables = %v, want %v", got, want)
	}
	if n := len(records(t, db)); n != 1 {
		t.Errorf("%d records, want 1", n)
	}
	// A bad SQL statement fails the same way.
	_, err = migrations.Migrate(ctx, db, migrations.Migration{App: "shop", Name: "0002_bad", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{"CREATE TABLE x ("}}}})
	if err == nil {
		t.Error("bad SQL migrated")
	}
}

func TestMigrateRejectsIncompleteMigration(t *testing.T) {
	db := openFile(t)
	if _, err := migrations.Migrate(context.Background(), db, migrations.Migration{App: "shop"}); err == nil {
		t.Error("a migration without a name was accepted")
	}
}

func TestMigrateConcurrentRunsApplyOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite3")
	ctx := context.Background()
	results := make(chan []string, 4)
	for i := 0; i < 4; i++ {
		go func() {
			db, err := store.Open(path)
			if err != nil {
				t.Error(err)
				results <- nil
				return
			}
			defer db.Close()
			applied, err := migrations.Migrate(ctx, db, demo...)
			if err != nil {
				t.Error(err)
			}
			results <- applied
		}()
	}
	total := 0
	for i := 0; i < 4; i++ {
		total += len(<-results)
	}
	if total != 2 {
		t.Errorf("%d migrations applied in all, want 2", total)
	}
}

// shelfApps are two apps, the second's migration with a foreign key to
// the first's table: shelf.0001_initial depends on library.0001_initial
// as Django's makemigrations writes it.
func shelfApps() (library, shelf migrations.Migration) {
	id := models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true}
	library = migrations.Migration{App: "library", Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Author", Table: "library_author", Fields: []models.Field{id}},
	}}
	shelf = migrations.Migration{App: "shelf", Name: "0001_initial", Dependencies: [][2]string{{"library", "0001_initial"}},
		Operations: []migrations.Operation{
			migrations.CreateModel{Name: "Book", Table: "shelf_book", Fields: []models.Field{id,
				{Name: "author", Column: "author_id", Kind: models.ForeignKey,
					Related: &models.Relation{Table: "library_author", Column: "id", OnDelete: models.Cascade}},
			}},
		}}
	return library, shelf
}

// TestMigrateAppliesDependenciesFirst: a migration given before the one
// of another app it depends on is applied after it, as Django's graph
// orders them, and Unapplied lists them in that order.
func TestMigrateAppliesDependenciesFirst(t *testing.T) {
	library, shelf := shelfApps()
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		ctx := context.Background()
		todo, err := migrations.Unapplied(ctx, db, shelf, library)
		if want := []string{"library.0001_initial", "shelf.0001_initial"}; err != nil || !reflect.DeepEqual(todo, want) {
			t.Errorf("Unapplied = %v, %v; want %v", todo, err, want)
		}
		applied, err := migrations.Migrate(ctx, db, shelf, library)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"library.0001_initial", "shelf.0001_initial"}; !reflect.DeepEqual(applied, want) {
			t.Errorf("applied = %v, want %v", applied, want)
		}
		db.MustExec(`INSERT INTO "library_author" ("id") VALUES (1)`)
		db.MustExec(`INSERT INTO "shelf_book" ("id", "author_id") VALUES (1, 1)`)
		if rs := records(t, db); len(rs) != 2 || rs[0].App != "library" || rs[1].App != "shelf" {
			t.Errorf("records = %+v", rs)
		}
	})
}

// TestMigrateRefusesBeforeTouchingTheDatabase: a dependency that none of
// the migrations is, a cycle, a migration that does not render, or one
// whose field sets an option a migration does not record (a models.Field
// written as the model's own) fail the run, named as Django names them,
// before anything is applied; Check finds the same.
func TestMigrateRefusesBeforeTouchingTheDatabase(t *testing.T) {
	library, shelf := shelfApps()
	loop := library
	loop.Dependencies = [][2]string{{"shelf", "0001_initial"}}
	broken := migrations.Migration{App: "shelf", Name: "0002_broken", Operations: []migrations.Operation{
		migrations.AlterField{Model: "nobody", Field: models.Field{Name: "x", Column: "x", Kind: models.IntegerField}},
	}}
	helped := migrations.Migration{App: "shelf", Name: "0002_book_note", Operations: []migrations.Operation{
		migrations.AddField{Model: "book", Field: models.Field{Name: "note", Column: "note", Kind: models.CharField, MaxLength: 10, Null: true, HelpText: "a note"}},
	}}
	named := migrations.Migration{App: "shelf", Name: "0002_alter_book_author", Operations: []migrations.Operation{
		migrations.AlterField{Model: "book", Field: models.Field{Name: "author", Column: "author_id", Kind: models.ForeignKey,
			Related: &models.Relation{Table: "library_author", Column: "id", OnDelete: models.Cascade, RelatedName: "books"}}},
	}}
	created := migrations.Migration{App: "shelf", Name: "0002_note", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Note", Table: "shelf_note", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
			{Name: "created", Column: "created", Kind: models.DateTimeField, AutoNowAdd: true}}},
	}}
	for _, c := range []struct {
		name string
		migs []migrations.Migration
		want string
	}{
		{"missing", []migrations.Migration{shelf}, "migrations: migration shelf.0001_initial: dependencies reference nonexistent parent node ('library', '0001_initial')"},
		{"cycle", []migrations.Migration{loop, shelf}, "migrations: migration library.0001_initial: circular dependency"},
		{"unrendered", []migrations.Migration{library, shelf, broken}, `migrations: migration shelf.0002_broken: migrations: app "shelf" has no model "nobody"`},
		{"help_text", []migrations.Migration{library, shelf, helped},
			"migrations: migration shelf.0002_book_note: migrations: AddField book.note: a migration does not record HelpText, which the model's own field holds"},
		{"related_name", []migrations.Migration{library, shelf, named},
			"migrations: migration shelf.0002_alter_book_author: migrations: AlterField book.author: a migration does not record Related.RelatedName, which the model's own field holds"},
		{"auto_now_add", []migrations.Migration{library, shelf, created},
			"migrations: migration shelf.0002_note: migrations: CreateModel Note.created: a migration does not record AutoNowAdd, which the model's own field holds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := openFile(t)
			applied, err := migrations.Migrate(context.Background(), db, c.migs...)
			var me *migrations.MigrationError
			if !errors.As(err, &me) || err.Error() != c.want || applied != nil {
				t.Errorf("Migrate = %v, %v; want nothing and %q", applied, err, c.want)
			}
			if got := tables(t, db); len(got) != 0 {
				t.Errorf("tables %v after a refused run", got)
			}
			if err := migrations.Check(c.migs...); err == nil || err.Error() != c.want {
				t.Errorf("Check = %v, want %q", err, c.want)
			}
		})
	}
	if err := migrations.Check(library, shelf); err != nil {
		t.Errorf("Check of good migrations: %v", err)
	}
}
