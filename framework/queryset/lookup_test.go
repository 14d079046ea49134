package queryset_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	qt "github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// TestWhere: every lookup selects on SQLite, on PostgreSQL and in memory
// the books a plain Go predicate selects; a decimal compared with an
// integer column is truncated first, as Django does; a value of the wrong type is
// ErrInvalidValue.
func TestWhere(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 60)
		all := f.All(t)
		mem := queryset.MustSlice(all, query.Order{Field: "id"})
		day := func(b qt.Book) string { return b.Created.UTC().Format("2006-01-02") }
		for _, c := range []struct {
			field  string
			lookup query.Lookup
			values []string
			want   func(b qt.Book) bool
		}{
			{"rating", query.Exact, []string{"3"}, func(b qt.Book) bool { return b.Rating == 3 }},
			{"rating", query.Exact, []string{"3.0"}, func(b qt.Book) bool { return b.Rating == 3 }},
			{"rating", query.Exact, []string{"2.5"}, func(b qt.Book) bool { return b.Rating == 2 }},
			{"rating", query.Exact, []string{"1e1"}, func(qt.Book) bool { return false }},
			{"rating", query.GTE, []string{"2.5"}, func(b qt.Book) bool { return b.Rating >= 2 }},
			{"rating", query.GT, []string{"0.9"}, func(b qt.Book) bool { return b.Rating > 0 }},
			{"rating", query.LTE, []string{"2.5"}, func(b qt.Book) bool { return b.Rating <= 2 }},
			{"rating", query.LT, []string{"-2.5"}, func(qt.Book) bool { return false }},
			{"rating", query.GTE, []string{"-1e30"}, func(qt.Book) bool { return true }},
			{"rating", query.LTE, []string{"1e30"}, func(qt.Book) bool { return true }},
			{"rating", query.GT, []string{"1e30"}, func(qt.Book) bool { return false }},
			{"rating", query.In, []string{"1", "2.5", "5"}, func(b qt.Book) bool { return b.Rating <= 2 || b.Rating == 5 }},
			{"rating", query.In, []string{"1e30"}, func(qt.Book) bool { return false }},
			{"rating", query.Range, []string{"1.5", "3.5"}, func(b qt.Book) bool { return b.Rating >= 1 && b.Rating <= 3 }},
			{"rating", query.Range, []string{"-1e30", "2"}, func(b qt.Book) bool { return b.Rating <= 2 }},
			{"title", query.Exact, []string{"Book 007"}, func(b qt.Book) bool { return b.Title == "Book 007" }},
			{"title", query.IExact, []string{"book 007"}, func(b qt.Book) bool { return b.Title == "Book 007" }},
			{"title", query.IContains, []string{"OK 00"}, func(b qt.Book) bool { return strings.Contains(b.Title, "ok 00") }},
			{"title", query.IContains, []string{"%"}, func(qt.Book) bool { return false }},
			{"title", query.IContains, []string{"_"}, func(qt.Book) bool { return false }},
			{"title", query.Contains, []string{"k 01"}, func(b qt.Book) bool { return strings.Contains(b.Title, "k 01") }},
			{"author", query.In, []string{"Author 1", "Author 2"}, func(b qt.Book) bool { return b.Author == "Author 1" || b.Author == "Author 2" }},
			{"created", query.GTE, []string{"2024-01-02 00:00:00+00:00"}, func(b qt.Book) bool { return day(b) >= "2024-01-02" }},
			{"created", query.LT, []string{"2024-01-02 12:00:00+00:00"}, func(b qt.Book) bool { return b.Created.Before(all[0].Created.Add(35 * 3600e9)) }},
			{"created", query.Date, []string{"2024-01-02"}, func(b qt.Book) bool { return day(b) == "2024-01-02" }},
			{"created", query.IsNull, []string{"false"}, func(qt.Book) bool { return true }},
			{"created", query.IsNull, []string{"true"}, func(qt.Book) bool { return false }},
		} {
			var want []int64
			for _, b := range all {
				if c.want(b) {
					want = append(want, b.ID)
				}
			}
			for name, src := range map[string]queryset.Source[qt.Book]{"sql": f.Books, "slice": mem} {
				got := ids(t, src.Where(c.field, c.lookup, c.values...), 0, -1)
				if !slices.Equal(got, want) {
					t.Errorf("%s: %s__%s=%v: %v, want %v", name, c.field, c.lookup, c.values, got, want)
				}
				if n := count(t, src.Where(c.field, c.lookup, c.values...)); n != len(want) {
					t.Errorf("%s: %s__%s=%v: count %d, want %d", name, c.field, c.lookup, c.values, n, len(want))
				}
			}
		}
		for _, bad := range []struct {
			field  string
			lookup query.Lookup
			values []string
		}{{"rating", query.Exact, []string{"x"}}, {"created", query.Date, []string{"2024-13-01"}}, {"rating", query.Range, []string{"1"}}, {"created", query.IsNull, []string{"maybe"}}} {
			for name, src := range map[string]queryset.Source[qt.Book]{"sql": f.Books, "slice": mem} {
				if _, err := src.Where(bad.field, bad.lookup, bad.values...).Count(t.Context()); !errors.Is(err, query.ErrInvalidValue) {
					t.Errorf("%s: %s__%s=%v: %v, want ErrInvalidValue", name, bad.field, bad.lookup, bad.values, err)
				}
			}
		}
	})
}
