package migrations_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// dataItem is the model of the table datago_item.
type dataItem struct {
	ID   int64  `db:"id"`
	Name string `db:"name" model:"max_length=10"`
}

func (dataItem) Meta() models.Meta { return models.Meta{App: "datago", Table: "datago_item"} }

// TestRunGoWritesInTheMigration: a RunGo's context carries the migrated
// database and its transaction, so that what it writes through a
// queryset source of that database with it is rolled back with the
// migration its error fails and kept with the one that succeeds; its
// store.OnCommit callbacks run once the migration has committed, never
// for the one rolled back.
func TestRunGoWritesInTheMigration(t *testing.T) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		names := func() []string {
			t.Helper()
			got := []string{}
			if err := db.Select(&got, `SELECT "name" FROM "datago_item" ORDER BY "id"`); err != nil {
				t.Fatal(err)
			}
			return got
		}
		initial := migrations.Migration{App: "datago", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{
			SQL:        []string{`CREATE TABLE "datago_item" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(10) NOT NULL)`},
			PostgreSQL: []string{`CREATE TABLE "datago_item" ("id" serial NOT NULL PRIMARY KEY, "name" varchar(10) NOT NULL)`},
		}}}
		var committed [][]string // the rows each OnCommit callback saw
		data := func(name string, outcome error) migrations.Migration {
			return migrations.Migration{App: "datago", Name: "0002_data", Operations: []migrations.Operation{migrations.RunGo{
				Func: func(ctx context.Context, _ *sqlx.Tx) error {
					src, err := queryset.NewSQL[dataItem](migrations.DBFrom(ctx), queryset.SQLConfig{})
					if err != nil {
						return err
					}
					if err := src.Insert(ctx, &dataItem{Name: name}); err != nil {
						return err
					}
					store.OnCommit(ctx, func() { committed = append(committed, names()) })
					return outcome
				},
			}}}
		}
		refused := errors.New("refused")
		ctx := context.Background()
		if _, err := migrations.Migrate(ctx, db, initial, data("a", refused)); !errors.Is(err, refused) {
			t.Fatalf("migrate: %v, want the RunGo's error", err)
		}
		if got := names(); len(got) != 0 || len(committed) != 0 {
			t.Errorf("after the failed migration: rows %v, OnCommit callbacks that ran %v; want none", got, committed)
		}
		applied, err := migrations.Migrate(ctx, db, initial, data("b", nil))
		if err != nil || !slices.Equal(applied, []string{"datago.0002_data"}) {
			t.Fatalf("migrate: %v, %v; want datago.0002_data applied", applied, err)
		}
		if got := names(); !slices.Equal(got, []string{"b"}) {
			t.Errorf("rows %v, want [b]", got)
		}
		if len(committed) != 1 || !slices.Equal(committed[0], []string{"b"}) {
			t.Errorf("the OnCommit callbacks saw %v, want one seeing the committed row, [b]", committed)
		}
	})
}
