package queryset_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// The models of testdata/cascade_django.py's app, over the tables Django
// creates for it.
type (
	cdShelf struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
	}
	cdLabel struct {
		ID      int64 `db:"id"`
		ShelfID int64 `db:"shelf_id" model:"foreign_key=cascade_shelf,on_delete=cascade,related_name=labels"`
	}
	cdSticker struct {
		ID      int64 `db:"id"`
		LabelID int64 `db:"label_id" model:"foreign_key=cascade_label,on_delete=cascade"`
	}
	cdNote struct {
		ID      int64  `db:"id"`
		ShelfID *int64 `db:"shelf_id" model:"foreign_key=cascade_shelf,on_delete=set_null"`
	}
	cdPin struct {
		ID      int64 `db:"id"`
		ShelfID int64 `db:"shelf_id" model:"foreign_key=cascade_shelf,on_delete=set_default,default=4"`
	}
	cdLock struct {
		ID      int64 `db:"id"`
		ShelfID int64 `db:"shelf_id" model:"foreign_key=cascade_shelf,on_delete=protect"`
	}
	cdHold struct {
		ID      int64 `db:"id"`
		ShelfID int64 `db:"shelf_id" model:"foreign_key=cascade_shelf,on_delete=restrict"`
	}
	// cdStray is of an app the database does not have: described, with
	// no source over it.
	cdStray struct {
		ID      int64 `db:"id"`
		ShelfID int64 `db:"shelf_id" model:"foreign_key=cascade_shelf,on_delete=cascade"`
	}
)

func (cdShelf) Meta() models.Meta   { return models.Meta{App: "cascade", Name: "Shelf"} }
func (cdLabel) Meta() models.Meta   { return models.Meta{App: "cascade", Name: "Label"} }
func (cdSticker) Meta() models.Meta { return models.Meta{App: "cascade", Name: "Sticker"} }
func (cdNote) Meta() models.Meta    { return models.Meta{App: "cascade", Name: "Note"} }
func (cdPin) Meta() models.Meta     { return models.Meta{App: "cascade", Name: "Pin"} }
func (cdLock) Meta() models.Meta    { return models.Meta{App: "cascade", Name: "Lock"} }
func (cdHold) Meta() models.Meta    { return models.Meta{App: "cascade", Name: "Hold"} }
func (cdStray) Meta() models.Meta   { return models.Meta{App: "elsewhere", Name: "Stray"} }

// cascadeDjango is what testdata/cascade_django.py prints.
type cascadeDjango struct {
	Before map[string][][]*int64 `json:"before"`
	Cases  []struct {
		Total *int64                `json:"total"`
		Error string                `json:"error"`
		Rows  map[string][][]*int64 `json:"rows"`
	} `json:"cases"`
}

// cascadeCases are the keys of the shelves each case of the script
// deletes (its CASES).
var cascadeCases = [][]string{{"1"}, {"2"}, {"6"}, {"3", "5"}, {"1", "2"}, {"7"}}

// Deleting rows applies the on_delete of the foreign keys that reference
// them as Django's Collector does, at both levels, on SQLite and on
// PostgreSQL: the total deleted (cascades included), every table's rows
// after it (CASCADE through two tables, SET_NULL, SET_DEFAULT), and
// PROTECT's and RESTRICT's refusals in Django's words, deleting nothing.
// A model described but of no app of the database (Django's app that is
// not installed) is not followed: its table is not there.
func TestCascadeAsDjango(t *testing.T) {
	if _, err := models.Of[cdStray](); err != nil {
		t.Fatal(err)
	}
	pyrun.Levels(t, "psycopg2", func(t *testing.T, level pyrun.Level) {
		for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
			t.Run(d.String(), func(t *testing.T) {
				dsn := filepath.Join(t.TempDir(), "db.sqlite3")
				if d == store.PostgreSQL {
					dsn = testservers.Postgres(t)
				}
				var want cascadeDjango
				if err := json.Unmarshal(pyrun.Exec(t, level, nil, "testdata/cascade_django.py", dsn), &want); err != nil {
					t.Fatal(err)
				}
				if len(want.Cases) != len(cascadeCases) {
					t.Fatalf("%d cases from Django, want %d", len(want.Cases), len(cascadeCases))
				}
				db, err := store.Open(dsn)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = db.Close() })
				checkCascadeAsDjango(t, db, want)
			})
		}
	})
}

func checkCascadeAsDjango(t *testing.T, db *sqlx.DB, want cascadeDjango) {
	ctx := t.Context()
	shelves := queryset.MustSQL[cdShelf](db, queryset.SQLConfig{})
	queryset.MustSQL[cdLabel](db, queryset.SQLConfig{})
	queryset.MustSQL[cdSticker](db, queryset.SQLConfig{})
	queryset.MustSQL[cdNote](db, queryset.SQLConfig{})
	queryset.MustSQL[cdPin](db, queryset.SQLConfig{})
	queryset.MustSQL[cdLock](db, queryset.SQLConfig{})
	queryset.MustSQL[cdHold](db, queryset.SQLConfig{})
	if got := cascadeRows(t, db); !reflect.DeepEqual(got, want.Before) {
		t.Fatalf("rows before: %v, Django's %v", got, want.Before)
	}
	errRollback := errors.New("rolled back")
	for i, keys := range cascadeCases {
		c := want.Cases[i]
		var total int64
		var rows map[string][][]*int64
		err := store.Atomic(ctx, db, func(ctx context.Context) error {
			var err error
			if total, err = shelves.Where("id", query.In, keys...).(*queryset.SQLSource[cdShelf]).DeleteAll(ctx); err != nil {
				return err
			}
			rows = cascadeRows(t, store.TxOf(ctx, db))
			return errRollback
		})
		var protected *queryset.ProtectedError
		switch {
		case c.Error != "":
			if !errors.As(err, &protected) || err.Error() != c.Error {
				t.Errorf("deleting shelves %v: %v, Django's %q", keys, err, c.Error)
			}
			rows = cascadeRows(t, db)
		case err != errRollback:
			t.Errorf("deleting shelves %v: %v", keys, err)
			continue
		case c.Total == nil || total != *c.Total:
			t.Errorf("deleting shelves %v: %d deleted, Django's %v", keys, total, c.Total)
		}
		if !reflect.DeepEqual(rows, c.Rows) {
			t.Errorf("deleting shelves %v: rows %v, Django's %v", keys, rows, c.Rows)
		}
	}
}

// cascadeRows reads each table's rows as the script prints them: [id,
// foreign key] (a shelf's [id]), by id.
func cascadeRows(t *testing.T, q sqlx.Queryer) map[string][][]*int64 {
	t.Helper()
	out := map[string][][]*int64{}
	for _, table := range []string{"shelf", "label", "sticker", "note", "pin", "lock", "hold"} {
		cols := "id, shelf_id"
		switch table {
		case "shelf":
			cols = "id, NULL"
		case "sticker":
			cols = "id, label_id"
		}
		rows, err := q.Queryx("SELECT " + cols + " FROM cascade_" + table + " ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		list := [][]*int64{}
		for rows.Next() {
			var id int64
			var fk *int64
			if err := rows.Scan(&id, &fk); err != nil {
				t.Fatal(err)
			}
			row := []*int64{&id}
			if table != "shelf" {
				row = append(row, fk)
			}
			list = append(list, row)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		out["cascade_"+table] = list
	}
	return out
}
