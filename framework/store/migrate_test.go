package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-drf/drf/framework/store"
	"github.com/jmoiron/sqlx"
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

var demo = []store.Migration{
	{App: "shop", Name: "0001_initial", Up: store.SQL(`CREATE TABLE "shop_item" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT)`)},
	{App: "shop", Name: "0002_price", Up: store.SQL(`ALTER TABLE "shop_item" ADD COLUMN "price" integer NOT NULL DEFAULT 0`)},
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
	applied, err := store.Migrate(ctx, db, demo...)
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

	again, err := store.Migrate(ctx, db, demo...)
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
	applied, err := store.Migrate(ctx, db, demo...)
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
	migs := []store.Migration{
		demo[0],
		{App: "shop", Name: "0002_broken", Up: func(ctx context.Context, tx *sqlx.Tx) error {
			if _, err := tx.ExecContext(ctx, `CREATE TABLE "shop_half" ("id" integer)`); err != nil {
				return err
			}
			return boom
		}},
		{App: "shop", Name: "0003_never", Up: store.SQL(`CREATE TABLE "shop_never" ("id" integer)`)},
	}
	applied, err := store.Migrate(ctx, db, migs...)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	var me *store.MigrationError
	if !errors.As(err, &me) || me.Migration.Name != "0002_broken" {
		t.Errorf("err = %#v, want a MigrationError for 0002_broken", err)
	}
	if err.Error() != "store: migration shop.0002_broken: boom" {
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
	_, err = store.Migrate(ctx, db, store.Migration{App: "shop", Name: "0002_bad", Up: store.SQL("CREATE TABLE x (", "")})
	if err == nil {
		t.Error("bad SQL migrated")
	}
}

func TestMigrateRejectsIncompleteMigration(t *testing.T) {
	db := openFile(t)
	if _, err := store.Migrate(context.Background(), db, store.Migration{App: "shop"}); err == nil {
		t.Error("a migration without a name or Up was accepted")
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
			applied, err := store.Migrate(ctx, db, demo...)
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
