package queryset_test

import (
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	qt "github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// tableBook is a row of books read from the table itself, without the
// owner's username.
type tableBook struct {
	ID      int64     `db:"id" json:"id" drf:"read_only"`
	Title   string    `db:"title" json:"title"`
	Author  string    `db:"author" json:"author"`
	Rating  int       `db:"rating" json:"rating"`
	Created time.Time `db:"created" json:"created" drf:"read_only"`
	OwnerID int64     `db:"owner_id" json:"owner_id"`
}

// BenchmarkWrite measures a create's and an update's write and read-back
// (what a POST and a PUT of /books/ cost in the source), through the
// books joined with their owners (the sample's source) and through the
// table alone, on an in-memory SQLite database and on PostgreSQL:
//
//	go test -run '^$' -bench Write -benchmem ./framework/queryset/
func BenchmarkWrite(b *testing.B) {
	for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
		b.Run(d.String(), func(b *testing.B) {
			dsn := ":memory:"
			if d == store.PostgreSQL {
				dsn = testservers.Postgres(b)
			}
			db, err := store.Open(dsn)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = db.Close() })
			f := qt.OpenDB(b, db, 1)
			created := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
			b.Run("join/insert", func(b *testing.B) {
				for b.Loop() {
					if err := f.Books.Insert(ctx, &qt.Book{Title: "New", Author: "Me", Rating: 4, Created: created, OwnerID: 2}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("join/update", func(b *testing.B) {
				book := &qt.Book{ID: 1, Title: "Renamed", Author: "Me", Rating: 4, Created: created, OwnerID: 2}
				for b.Loop() {
					if err := f.Books.Update(ctx, book); err != nil {
						b.Fatal(err)
					}
				}
			})
			table := tableBooks(b, db)
			b.Run("table/insert", func(b *testing.B) {
				for b.Loop() {
					if err := table.Insert(ctx, &tableBook{Title: "New", Author: "Me", Rating: 4, Created: created, OwnerID: 2}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("table/update", func(b *testing.B) {
				book := &tableBook{ID: 1, Title: "Renamed", Author: "Me", Rating: 4, Created: created, OwnerID: 2}
				for b.Loop() {
					if err := table.Update(ctx, book); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// tableBooks is the books table of qt's fixture on db as a source of its own.
func tableBooks(t testing.TB, db *sqlx.DB) *queryset.SQLSource[tableBook] {
	t.Helper()
	src, err := queryset.NewSQL[tableBook](db, queryset.SQLConfig{Table: "books"})
	if err != nil {
		t.Fatal(err)
	}
	return src
}
