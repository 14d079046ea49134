package queryset_test

import (
	"testing"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	qt "github.com/go-drf/drf/internal/querysettest"
)

// BenchmarkMatchKey measures a read of one row by an integer lookup, as
// a key in a URL or a query parameter gives it (Match of
// Lookup("id", Exact, "1")), on an in-memory SQLite database:
//
//	go test -run '^$' -bench MatchKey -benchmem ./framework/queryset/
func BenchmarkMatchKey(b *testing.B) {
	db, err := store.Open(":memory:")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	f := qt.OpenDB(b, db, 1)
	for b.Loop() {
		rows, err := f.Books.Match(queryset.Lookup("id", query.Exact, "1")).Slice(ctx, 0, 1)
		if err != nil || len(rows) != 1 {
			b.Fatal(rows, err)
		}
	}
}

// BenchmarkMatchOr measures a read by two lookups of which one must hold
// (Match of Or(Lookup("id", Exact, "1"), Lookup("id", Exact, "2"))), on
// an in-memory SQLite database:
//
//	go test -run '^$' -bench MatchOr -benchmem ./framework/queryset/
func BenchmarkMatchOr(b *testing.B) {
	db, err := store.Open(":memory:")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	f := qt.OpenDB(b, db, 2)
	for b.Loop() {
		rows, err := f.Books.Match(queryset.Or(queryset.Lookup("id", query.Exact, "1"), queryset.Lookup("id", query.Exact, "2"))).Slice(ctx, 0, 2)
		if err != nil || len(rows) != 2 {
			b.Fatal(rows, err)
		}
	}
}
