package queryset_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// bulkShelf is a row of bulk_shelf: a unique name, a rank and a nullable note.
type bulkShelf struct {
	ID   int64   `db:"id" json:"id"`
	Name string  `db:"name" json:"name" model:"max_length=20,unique"`
	Rank int64   `db:"rank" json:"rank"`
	Note *string `db:"note" json:"note" model:"max_length=20,blank"`
}

func (bulkShelf) Meta() models.Meta { return models.Meta{App: "bulk", Table: "bulk_shelf"} }

// bulkItem is on a shelf, and is deleted with it.
type bulkItem struct {
	ID      int64  `db:"id" json:"id"`
	ShelfID int64  `db:"shelf_id" json:"shelf" model:"foreign_key=bulk_shelf,on_delete=cascade"`
	Title   string `db:"title" json:"title" model:"max_length=20"`
}

func (bulkItem) Meta() models.Meta { return models.Meta{App: "bulk", Table: "bulk_item"} }

// bulkLock keeps its bulkShelf from being deleted.
type bulkLock struct {
	ID      int64 `db:"id" json:"id"`
	ShelfID int64 `db:"shelf_id" json:"shelf" model:"foreign_key=bulk_shelf,on_delete=protect"`
}

func (bulkLock) Meta() models.Meta { return models.Meta{App: "bulk", Table: "bulk_lock"} }

var bulkTables = map[store.Dialect][]string{
	store.SQLite: {
		`CREATE TABLE "bulk_shelf" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(20) NOT NULL UNIQUE, "rank" bigint NOT NULL, "note" varchar(20) NULL)`,
		`CREATE TABLE "bulk_item" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "shelf_id" bigint NOT NULL REFERENCES "bulk_shelf" ("id") DEFERRABLE INITIALLY DEFERRED, "title" varchar(20) NOT NULL)`,
		`CREATE TABLE "bulk_lock" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "shelf_id" bigint NOT NULL REFERENCES "bulk_shelf" ("id") DEFERRABLE INITIALLY DEFERRED)`,
	},
	store.PostgreSQL: {
		`CREATE TABLE "bulk_shelf" ("id" bigserial NOT NULL PRIMARY KEY, "name" varchar(20) NOT NULL UNIQUE, "rank" bigint NOT NULL, "note" varchar(20) NULL)`,
		`CREATE TABLE "bulk_item" ("id" bigserial NOT NULL PRIMARY KEY, "shelf_id" bigint NOT NULL REFERENCES "bulk_shelf" ("id") DEFERRABLE INITIALLY DEFERRED, "title" varchar(20) NOT NULL)`,
		`CREATE TABLE "bulk_lock" ("id" bigserial NOT NULL PRIMARY KEY, "shelf_id" bigint NOT NULL REFERENCES "bulk_shelf" ("id") DEFERRABLE INITIALLY DEFERRED)`,
	},
}

// bulkApp creates the tables with shelves a (rank 1), b (2), c (3) and d
// (3, noted "x"), two items on a, one on b and one on c, and a lock on
// d, and returns the shelves' and items' sources.
func bulkApp(t *testing.T, db *sqlx.DB) (*queryset.SQLSource[bulkShelf], *queryset.SQLSource[bulkItem]) {
	t.Helper()
	for _, q := range bulkTables[store.DialectOf(db)] {
		db.MustExec(q)
	}
	shelves := queryset.MustSQL[bulkShelf](db, queryset.SQLConfig{})
	items := queryset.MustSQL[bulkItem](db, queryset.SQLConfig{})
	locks := queryset.MustSQL[bulkLock](db, queryset.SQLConfig{})
	x := "x"
	for i, s := range []bulkShelf{{Name: "a", Rank: 1}, {Name: "b", Rank: 2}, {Name: "c", Rank: 3}, {Name: "d", Rank: 3, Note: &x}} {
		if err := shelves.Insert(ctx, &s); err != nil || s.ID != int64(i+1) {
			t.Fatal(s, err)
		}
	}
	for _, bulkShelf := range []int64{1, 1, 2, 3} {
		if err := items.Insert(ctx, &bulkItem{ShelfID: bulkShelf, Title: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := locks.Insert(ctx, &bulkLock{ShelfID: 4}); err != nil {
		t.Fatal(err)
	}
	return shelves, items
}

// names are the names of the shelves src holds, in key order.
func names(t *testing.T, src queryset.Source[bulkShelf]) []string {
	t.Helper()
	all, err := src.OrderBy(query.Order{Field: "id"}).Slice(ctx, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, s := range all {
		out = append(out, s.Name)
	}
	return out
}

// Match with Or is Django's filter(Q(a) | Q(b)): the items that meet one
// of the conditions, nested conditions included, with the source's other
// conditions; Or() holds for none and And() for all, and an unknown
// field is an error when the source is read.
func TestMatchOr(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		shelves, _ := bulkApp(t, db)
		rank := func(op query.Lookup, v string) queryset.Q { return queryset.Lookup("rank", op, v) }
		for _, c := range []struct {
			name string
			src  queryset.Source[bulkShelf]
			want []string
		}{
			{"a or rank 3", shelves.Match(queryset.Or(queryset.Lookup("name", query.Exact, "a"), rank(query.Exact, "3"))), []string{"a", "c", "d"}},
			{"or with and", shelves.Match(queryset.Or(queryset.Lookup("name", query.Exact, "b"),
				queryset.And(rank(query.GTE, "3"), queryset.Lookup("note", query.IsNull, "true")))), []string{"b", "c"}},
			{"two conditions", shelves.Match(queryset.Or(rank(query.LT, "2"), rank(query.GT, "2")), queryset.Lookup("note", query.IsNull, "true")), []string{"a", "c"}},
			{"after a filter", shelves.Filter("rank", "3").(*queryset.SQLSource[bulkShelf]).Match(queryset.Or(queryset.Lookup("name", query.IContains, "D"),
				queryset.Lookup("name", query.Exact, "a"))), []string{"d"}},
			{"or of none", shelves.Match(queryset.Or()), []string{}},
			{"and of none", shelves.Match(queryset.And()), []string{"a", "b", "c", "d"}},
			{"a number beyond the field", shelves.Match(queryset.Or(rank(query.Exact, "1e30"), rank(query.Exact, "2"))), []string{"b"}},
		} {
			if got := names(t, c.src); !slices.Equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
			if n, err := c.src.Count(ctx); err != nil || n != len(c.want) {
				t.Errorf("%s: count %d %v, want %d", c.name, n, err, len(c.want))
			}
		}
		var unknown *queryset.UnknownFieldError
		if _, err := shelves.Match(queryset.Or(queryset.Lookup("colour", query.Exact, "red"))).Count(ctx); !errors.As(err, &unknown) {
			t.Errorf("an unknown field: %v", err)
		}
		if _, err := shelves.Match(queryset.Lookup("rank", query.Exact, "high")).Count(ctx); !errors.Is(err, query.ErrInvalidValue) {
			t.Errorf("a rank that is no number: %v", err)
		}
	})
}

// UpdateAll is Django's QuerySet.update(): it sets the fields of the
// rows the source holds, and of none other, and returns the rows matched,
// those that held the values already included; in an atomic block that
// fails, it is undone.
func TestUpdateAll(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		shelves, items := bulkApp(t, db)
		n, err := shelves.Filter("rank", "3").(*queryset.SQLSource[bulkShelf]).UpdateAll(ctx, &bulkShelf{Rank: 3, Note: nil}, "rank", "note")
		if err != nil || n != 2 {
			t.Fatalf("update of rank 3: %d %v, want 2", n, err)
		}
		if got := names(t, shelves.Where("note", query.IsNull, "true")); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
			t.Errorf("notes after the update: %v", got)
		}
		if n, err := shelves.UpdateAll(ctx, &bulkShelf{Rank: 7}, "rank"); err != nil || n != 4 {
			t.Errorf("update of all: %d %v, want 4", n, err)
		}
		if n, err := items.Match(queryset.Lookup("shelf", query.In, "1", "2")).UpdateAll(ctx, &bulkItem{ShelfID: 3}, "shelf"); err != nil || n != 3 {
			t.Errorf("update by the foreign key's Django name: %d %v, want 3", n, err)
		}
		if n, err := items.Filter("shelf_id", "3").Count(ctx); err != nil || n != 4 {
			t.Errorf("items on c: %d %v", n, err)
		}
		if n, err := shelves.Match(queryset.Or()).UpdateAll(ctx, &bulkShelf{Rank: 1}, "rank"); err != nil || n != 0 {
			t.Errorf("update of none: %d %v", n, err)
		}
		var unknown *queryset.UnknownFieldError
		if _, err := shelves.UpdateAll(ctx, &bulkShelf{}, "colour"); !errors.As(err, &unknown) {
			t.Errorf("an unknown field: %v", err)
		}
		if _, err := shelves.UpdateAll(ctx, &bulkShelf{}); err == nil {
			t.Error("an update of no field succeeded")
		}
		refused := errors.New("refused")
		err = shelves.Atomic(ctx, func(ctx context.Context) error {
			if n, err := shelves.UpdateAll(ctx, &bulkShelf{Rank: 9}, "rank"); err != nil || n != 4 {
				t.Errorf("update in a block: %d %v", n, err)
			}
			if n, err := shelves.Filter("rank", "9").Count(ctx); err != nil || n != 4 {
				t.Errorf("the block's read of its update: %d %v", n, err)
			}
			return refused
		})
		if !errors.Is(err, refused) {
			t.Fatal(err)
		}
		if n, err := shelves.Filter("rank", "7").Count(ctx); err != nil || n != 4 {
			t.Errorf("after a failed block: %d of rank 7, %v, want 4", n, err)
		}
	})
}

// DeleteAll is Django's QuerySet.delete(): it deletes the rows the
// source holds, cascades to the rows that reference them, and returns
// them all; a protected row deletes nothing; in an atomic block that
// fails, it is undone.
func TestDeleteAll(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		shelves, items := bulkApp(t, db)
		var protected *queryset.ProtectedError
		if n, err := shelves.Match(queryset.Lookup("rank", query.GTE, "2")).DeleteAll(ctx); !errors.As(err, &protected) || n != 0 {
			t.Errorf("a delete of the locked bulkShelf: %d %v", n, err)
		}
		if got := names(t, shelves); len(got) != 4 {
			t.Errorf("a refused delete deleted: %v", got)
		}
		if n, err := items.Filter("shelf_id", "1").(*queryset.SQLSource[bulkItem]).DeleteAll(ctx); err != nil || n != 2 {
			t.Errorf("a's items: %d %v, want 2", n, err)
		}
		refused := errors.New("refused")
		err := shelves.Atomic(ctx, func(ctx context.Context) error {
			if n, err := shelves.Match(queryset.Lookup("name", query.In, "b", "c")).DeleteAll(ctx); err != nil || n != 4 {
				t.Errorf("b and c with their items, in a block: %d %v, want 4", n, err)
			}
			return refused
		})
		if !errors.Is(err, refused) {
			t.Fatal(err)
		}
		if got := names(t, shelves); len(got) != 4 {
			t.Errorf("after a failed block: %v", got)
		}
		if n, err := shelves.Match(queryset.Lookup("name", query.In, "b", "c")).DeleteAll(ctx); err != nil || n != 4 {
			t.Errorf("b and c with their items: %d %v, want 4", n, err)
		}
		if got := names(t, shelves); !slices.Equal(got, []string{"a", "d"}) {
			t.Errorf("shelves left: %v", got)
		}
		if n, err := items.Count(ctx); err != nil || n != 0 {
			t.Errorf("items left: %d %v", n, err)
		}
		if n, err := shelves.Match(queryset.Or()).DeleteAll(ctx); err != nil || n != 0 {
			t.Errorf("a delete of none: %d %v", n, err)
		}
		if n, err := items.DeleteAll(ctx); err != nil || n != 0 {
			t.Errorf("a delete of an empty table: %d %v", n, err)
		}
	})
}

// GetOrCreate is Django's get_or_create(): the stored row when one has
// the fields' values, else the item inserted; an insert that fails on
// another unique field is its error, and in an atomic block the block
// goes on, as a savepoint rolled back.
func TestGetOrCreate(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		shelves, _ := bulkApp(t, db)
		got := &bulkShelf{Name: "b", Rank: 99}
		if created, err := shelves.GetOrCreate(ctx, got, "name"); err != nil || created || got.ID != 2 || got.Rank != 2 {
			t.Errorf("b: %v %v %+v, want the stored row", created, err, got)
		}
		e := &bulkShelf{Name: "e", Rank: 5}
		if created, err := shelves.GetOrCreate(ctx, e, "name"); err != nil || !created || e.ID != 5 {
			t.Errorf("e: %v %v %+v, want it created", created, err, e)
		}
		again := &bulkShelf{Name: "e", Rank: 6}
		if created, err := shelves.GetOrCreate(ctx, again, "name"); err != nil || created || again.ID != 5 || again.Rank != 5 {
			t.Errorf("e again: %v %v %+v", created, err, again)
		}
		noted := &bulkShelf{Name: "f", Rank: 3}
		if created, err := shelves.GetOrCreate(ctx, noted, "rank", "note"); err != nil || created || noted.ID != 3 {
			t.Errorf("rank 3 without a note: %v %v %+v, want c", created, err, noted)
		}
		var many *queryset.MultipleObjectsReturnedError
		if _, err := shelves.GetOrCreate(ctx, &bulkShelf{Rank: 3}, "rank"); !errors.As(err, &many) ||
			err.Error() != "get() returned more than one bulkShelf -- it returned 2!" {
			t.Errorf("two of rank 3: %v", err)
		}
		err := shelves.Atomic(ctx, func(ctx context.Context) error {
			if _, err := shelves.GetOrCreate(ctx, &bulkShelf{Name: "a", Rank: 8}, "rank"); !store.IsUniqueViolation(err) {
				t.Errorf("rank 8 named a: %v, want a unique violation", err)
			}
			created, err := shelves.GetOrCreate(ctx, &bulkShelf{Name: "g", Rank: 8}, "rank")
			if err != nil || !created {
				t.Errorf("after the violation, in the block: %v %v", created, err)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(t, shelves); !slices.Equal(got, []string{"a", "b", "c", "d", "e", "g"}) {
			t.Errorf("shelves: %v", got)
		}
	})
}

// UpdateOrCreate is Django's update_or_create(): the stored row, when
// one has the fields' values, saved with the item's other values under
// its key, else the item inserted.
func TestUpdateOrCreate(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		shelves, _ := bulkApp(t, db)
		x := "new"
		b := &bulkShelf{Name: "b", Rank: 20, Note: &x}
		if created, err := shelves.UpdateOrCreate(ctx, b, "name"); err != nil || created || b.ID != 2 {
			t.Errorf("b: %v %v %+v", created, err, b)
		}
		stored, err := shelves.Filter("id", "2").Slice(ctx, 0, 1)
		if err != nil || len(stored) != 1 || stored[0].Rank != 20 || stored[0].Note == nil || *stored[0].Note != "new" {
			t.Errorf("b stored: %v %v", stored, err)
		}
		h := &bulkShelf{Name: "h", Rank: 1}
		if created, err := shelves.UpdateOrCreate(ctx, h, "name"); err != nil || !created || h.ID != 5 {
			t.Errorf("h: %v %v %+v", created, err, h)
		}
		if n, err := shelves.Count(ctx); err != nil || n != 5 {
			t.Errorf("shelves: %d %v, want 5", n, err)
		}
		if _, err := shelves.UpdateOrCreate(ctx, &bulkShelf{Name: "h", Rank: 1}, "colour"); err == nil {
			t.Error("an unknown field succeeded")
		}
	})
}
