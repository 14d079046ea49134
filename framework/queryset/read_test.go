package queryset_test

import (
	"database/sql"
	"database/sql/driver"
	"reflect"
	"testing"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	qt "github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// TestReadsThroughTheReader: on PostgreSQL a source's reads (a page, an
// item found by key, its count, a table's count and a trigger-kept one)
// answer through store.ReaderOf what they answer through database/sql,
// on a database opened with Options.OpenDB (which keeps them there).
func TestReadsThroughTheReader(t *testing.T) {
	native, err := store.Open(testservers.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer native.Close()
	traced, err := store.OpenWith(testservers.Postgres(t), store.Options{OpenDB: func(c driver.Connector) *sql.DB { return sql.OpenDB(c) }})
	if err != nil {
		t.Fatal(err)
	}
	defer traced.Close()
	if store.ReaderOf(native) == nil || store.ReaderOf(traced) != nil {
		t.Fatal("a reader only for the database opened without OpenDB")
	}
	type answer struct {
		all, page, one     []*qt.Book
		count, table, rows int
	}
	read := func(f *qt.Fixture) answer {
		t.Helper()
		var a answer
		var err error
		if a.all, err = f.Books.Slice(ctx, 0, -1); err != nil {
			t.Fatal(err)
		}
		if a.page, err = f.Books.Slice(ctx, 5, 3); err != nil {
			t.Fatal(err)
		}
		if a.one, err = f.Books.Filter("id", "7").Slice(ctx, 0, 1); err != nil {
			t.Fatal(err)
		}
		if a.count, err = f.Books.Filter("author", "Author 3").Count(ctx); err != nil {
			t.Fatal(err)
		}
		if a.table, err = queryset.CountTable("books").CountRows(ctx, f.DB); err != nil {
			t.Fatal(err)
		}
		counter := queryset.RowCounter{Table: "books"}
		if _, err := migrations.Migrate(ctx, f.DB, counter.Migration("bookshelf", "0002_rowcount")); err != nil {
			t.Fatal(err)
		}
		if a.rows, err = counter.CountRows(ctx, f.DB); err != nil {
			t.Fatal(err)
		}
		return a
	}
	got, want := read(qt.OpenDB(t, native, 20)), read(qt.OpenDB(t, traced, 20))
	if len(got.all) != 20 || len(got.page) != 3 || len(got.one) != 1 || got.one[0].ID != 7 || got.count != 3 || got.table != 20 || got.rows != 20 {
		t.Errorf("through the reader: %d books, a page of %d, %d of id 7, count %d, table count %d, counter %d",
			len(got.all), len(got.page), len(got.one), got.count, got.table, got.rows)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the reader read %+v, database/sql %+v", got, want)
	}
}
