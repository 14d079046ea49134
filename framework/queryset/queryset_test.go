package queryset_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	qt "github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

var ctx = context.Background()

func ids(t *testing.T, src queryset.Source[qt.Book], offset, limit int) []int64 {
	t.Helper()
	items, err := src.Slice(ctx, offset, limit)
	if err != nil {
		t.Fatal(err)
	}
	out := []int64{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func count(t *testing.T, src queryset.Source[qt.Book]) int {
	t.Helper()
	n, err := src.Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSQLSourceReadsTheJoin(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 100)
		if n := count(t, f.Books); n != 100 {
			t.Fatalf("count = %d", n)
		}
		items, err := f.Books.Slice(ctx, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		want := []qt.Book{
			{ID: 2, Title: "Book 002", Author: "Author 2", Rating: 5, Created: time.Date(2024, 1, 1, 2, 0, 0, 0, time.UTC), OwnerID: 2, Owner: "alice"},
			{ID: 3, Title: "Book 003", Author: "Author 3", Rating: 2, Created: time.Date(2024, 1, 1, 3, 0, 0, 0, time.UTC), OwnerID: 1, Owner: "admin"},
		}
		for i, it := range items {
			got := *it
			if got != want[i] {
				t.Errorf("item %d = %+v, want %+v", i, got, want[i])
			}
		}
		if got := f.Books.Ordering(); !slices.Equal(got, []query.Order{{Field: "id"}}) {
			t.Errorf("default ordering = %v", got)
		}
	})
}

func TestFilterOrderSearchSeek(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 100)
		b := f.Books
		if n := count(t, b.Filter("owner", "alice")); n != 50 {
			t.Errorf("alice's books = %d", n)
		}
		if got := ids(t, b.Filter("rating", "1").OrderBy(query.Order{Field: "author"}, query.Order{Field: "id", Desc: true}), 0, 3); !slices.Equal(got, []int64{70, 35, 85}) {
			t.Errorf("rating 1 by author, -id = %v", got)
		}
		if got := ids(t, b.Search([]string{"title", "author"}, []string{"BOOK", "05"}), 0, -1); !slices.Equal(got, []int64{5, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59}) {
			t.Errorf("search = %v", got)
		}
		if n := count(t, b.Search([]string{"author"}, []string{"aUTHOR 3"})); n != 14 {
			t.Errorf("case-insensitive search = %d, want 14", n)
		}
		if got := ids(t, b.Search([]string{"title"}, []string{"Book", "Author"}), 0, -1); len(got) != 0 {
			t.Errorf("every term must match some field: %v", got)
		}
		for _, term := range []string{"%", "_", `\`, "0%1", "Book_0"} {
			if n := count(t, b.Search([]string{"title"}, []string{term})); n != 0 {
				t.Errorf("LIKE wildcard %q not escaped: %d matches", term, n)
			}
		}
		byCreated := b.OrderBy(query.Order{Field: "created", Desc: true})
		for _, pos := range []string{"2024-01-05 00:00:00+00:00", "2024-01-05 01:00:00+01:00", "2024-01-05T00:00:00Z", "2024-01-05 00:00"} {
			if got := ids(t, byCreated.Seek("created", query.Less, pos), 0, 5); !slices.Equal(got, []int64{95, 94, 93, 92, 91}) {
				t.Errorf("seek below %q = %v", pos, got)
			}
		}
		if got := ids(t, b.Seek("created", query.Greater, "2024-01-05 00:00:00.000001+00:00"), 0, 2); !slices.Equal(got, []int64{97, 98}) {
			t.Errorf("seek above, microseconds = %v", got)
		}
		if got := ids(t, b.OrderBy(query.Order{Field: "rating"}, query.Order{Field: "id"}).Seek("rating", query.Greater, "4"), 0, 2); !slices.Equal(got, []int64{2, 7}) {
			t.Errorf("seek on rating = %v", got)
		}
		if n := count(t, b.Seek("id", query.Greater, "90").Filter("owner", "alice")); n != 5 {
			t.Errorf("count of seek and filter = %d", n)
		}
	})
}

func TestPositionIsDjangoText(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 100)
		items, err := f.Books.Filter("id", "96").Slice(ctx, 0, 1)
		if err != nil || len(items) != 1 {
			t.Fatal(items, err)
		}
		for field, want := range map[string]string{"created": "2024-01-05 00:00:00+00:00", "rating": "3", "title": "Book 096", "owner": "alice"} {
			got, err := f.Books.Position(items[0], field)
			if err != nil || got != want {
				t.Errorf("position of %s = %q, %v; want %q", field, got, err, want)
			}
		}
		if _, err := f.Books.Position(items[0], "nope"); err == nil {
			t.Error("position of an unknown field should fail")
		}
	})
}

func TestBadNamesAndValuesAreErrorsNotSQL(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 10)
		b := f.Books
		var unknown *queryset.UnknownFieldError
		for _, src := range []queryset.Source[qt.Book]{
			b.OrderBy(query.Order{Field: `id; DROP TABLE books; --`}),
			b.Filter(`1=1 OR "id"`, "1"),
			b.Search([]string{`title" OR 1=1 --`}, []string{"x"}),
			b.Seek(`id) OR (1=1`, query.Greater, "0"),
		} {
			if _, err := src.Slice(ctx, 0, -1); !errors.As(err, &unknown) {
				t.Errorf("slice error = %v, want UnknownFieldError", err)
			}
			if _, err := src.Count(ctx); !errors.As(err, &unknown) {
				t.Errorf("count error = %v, want UnknownFieldError", err)
			}
		}
		for _, src := range []queryset.Source[qt.Book]{
			b.Filter("id", "1 OR 1=1"),
			b.Filter("id", "abc"),
			b.Seek("created", query.Less, "2024-01-05' OR '1'='1"),
		} {
			if _, err := src.Slice(ctx, 0, -1); !errors.Is(err, query.ErrInvalidValue) {
				t.Errorf("error = %v, want ErrInvalidValue", err)
			}
		}
		if n := count(t, b.Filter("title", "x' OR '1'='1")); n != 0 {
			t.Errorf("quoted value matched %d rows", n)
		}
		if n := count(t, b.Search([]string{"title"}, []string{"'; DROP TABLE books; --"})); n != 0 {
			t.Errorf("search matched %d rows", n)
		}
		if n := count(t, b); n != 10 {
			t.Errorf("books left: %d", n)
		}
	})
}

func TestWriterInsertUpdateDelete(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 3)
		created := time.Date(2025, 2, 3, 4, 5, 6, 123456789, time.UTC)
		b := &qt.Book{Title: "New", Author: "Me", Rating: 4, Created: created, OwnerID: 2}
		if err := f.Books.Insert(ctx, b); err != nil {
			t.Fatal(err)
		}
		if b.ID != 4 || b.Owner != "alice" || !b.Created.Equal(created.Truncate(time.Microsecond)) {
			t.Fatalf("inserted and reloaded = %+v", b)
		}
		var stored string
		want := map[store.Dialect]string{store.SQLite: "2025-02-03 04:05:06.123456", store.PostgreSQL: "2025-02-03 04:05:06.123456+00"}[store.DialectOf(db)]
		if err := f.DB.Get(&stored, `SELECT CAST("created" AS TEXT) FROM "books" WHERE "id" = 4`); err != nil || stored != want {
			t.Errorf("stored created = %q, %v; want %q", stored, err, want)
		}
		if pos, _ := f.Books.Position(b, "created"); pos != "2025-02-03 04:05:06.123456+00:00" {
			t.Errorf("position = %q", pos)
		}
		b.Title, b.OwnerID = "Renamed", 1
		if err := f.Books.Update(ctx, b); err != nil {
			t.Fatal(err)
		}
		if b.Owner != "admin" {
			t.Errorf("owner after update = %q", b.Owner)
		}
		if got := ids(t, f.Books.Filter("title", "Renamed"), 0, -1); !slices.Equal(got, []int64{4}) {
			t.Errorf("renamed = %v", got)
		}
		if err := f.Books.Delete(ctx, b); err != nil {
			t.Fatal(err)
		}
		if err := f.Books.Delete(ctx, b); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("second delete = %v", err)
		}
		if err := f.Books.Update(ctx, b); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("update of a deleted row = %v", err)
		}
		if n := count(t, f.Books); n != 3 {
			t.Errorf("count = %d", n)
		}
		readOnly := queryset.MustSQL[qt.Book](f.DB, queryset.SQLConfig{Query: qt.BooksQuery})
		if err := readOnly.Insert(ctx, &qt.Book{}); !errors.Is(err, queryset.ErrReadOnly) {
			t.Errorf("insert through a read-only source = %v", err)
		}
	})
}

func TestSliceAgreesWithSQL(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 100)
		rows := f.All(t)
		slices.Reverse(rows) // the slice's own order must not matter once ordered
		mem := queryset.MustSlice(rows, query.Order{Field: "id"})
		asc := func(s string) query.Order { return query.ParseOrder(s) }
		cases := []struct {
			name          string
			q             func(queryset.Source[qt.Book]) queryset.Source[qt.Book]
			offset, limit int
		}{
			{"all", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s }, 0, -1},
			{"page", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s }, 10, 10},
			{"past the end", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s }, 200, 10},
			{"filter", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.Filter("author", "Author 3") }, 0, -1},
			{"filter time", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.Filter("created", "2024-01-02 00:00:00+00:00")
			}, 0, -1},
			{"two orders", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.OrderBy(asc("-rating"), asc("author"), asc("-id"))
			}, 5, 20},
			{"order by text", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.OrderBy(asc("-title")) }, 0, 7},
			{"search", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.Search([]string{"title", "author"}, []string{"author 1", "0"})
			}, 0, -1},
			{"search number", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.Search([]string{"rating"}, []string{"5"})
			}, 0, -1},
			{"search time", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.Search([]string{"created"}, []string{"01-03 0"})
			}, 0, -1},
			{"seek desc", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.OrderBy(asc("-created")).Seek("created", query.Less, "2024-01-03 12:00:00+00:00")
			}, 0, 5},
			{"seek non-unique", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.OrderBy(asc("rating"), asc("id")).Seek("rating", query.Greater, "2")
			}, 3, 5},
			{"seek text", func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.OrderBy(asc("title")).Seek("title", query.Greater, "Book 090")
			}, 0, -1},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				db, m := c.q(f.Books), c.q(mem)
				if a, b := ids(t, db, c.offset, c.limit), ids(t, m, c.offset, c.limit); !slices.Equal(a, b) {
					t.Errorf("sql %v\nslice %v", a, b)
				}
				if a, b := count(t, db), count(t, m); a != b {
					t.Errorf("count: sql %d, slice %d", a, b)
				}
				items, _ := m.Slice(ctx, c.offset, 1)
				for _, it := range items {
					for _, field := range []string{"id", "created", "rating", "title"} {
						p1, _ := db.Position(it, field)
						p2, _ := m.Position(it, field)
						if p1 != p2 {
							t.Errorf("position of %s: %q vs %q", field, p1, p2)
						}
					}
				}
			})
		}
	})
}

func TestSourcesAreImmutable(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 20)
		base := f.Books.Filter("owner", "alice")
		a := base.Filter("rating", "5")
		b := base.Filter("rating", "1")
		if count(t, base) != 10 || count(t, a) == count(t, base) || fmt.Sprint(ids(t, a, 0, -1)) == fmt.Sprint(ids(t, b, 0, -1)) {
			t.Errorf("derived sources share state: base %v a %v b %v", ids(t, base, 0, -1), ids(t, a, 0, -1), ids(t, b, 0, -1))
		}
		if len(f.Books.Ordering()) != 1 || len(base.OrderBy().Ordering()) != 0 {
			t.Error("OrderBy changed its receiver")
		}
	})
}

// TestLateRowLookupAgrees: with SQLConfig.TableRows, deep pages (found
// over the table alone) are the pages the plain query gives, for every
// ordering, tie and offset, on both dialects; orderings by a joined column
// and filtered sources keep the plain query.
func TestLateRowLookupAgrees(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 400)
		late := queryset.MustSQL[qt.Book](db, queryset.SQLConfig{
			Table:     "books",
			Query:     qt.BooksQuery,
			Columns:   []string{"title", "author", "rating", "created", "owner_id"},
			Ordering:  []query.Order{{Field: "id"}},
			TableRows: true,
		})
		o := query.ParseOrder
		for _, q := range []func(queryset.Source[qt.Book]) queryset.Source[qt.Book]{
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.OrderBy(o("-id")) },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.OrderBy(o("rating")) },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.OrderBy(o("-rating"), o("author")) },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.OrderBy(o("-created")) },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.OrderBy(o("author"), o("-id")) },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.OrderBy(o("owner"), o("rating")) },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] { return s.Filter("author", "Author 3") },
			func(s queryset.Source[qt.Book]) queryset.Source[qt.Book] {
				return s.Search([]string{"title"}, []string{"1"})
			},
		} {
			for _, offset := range []int{0, 99, queryset.LateRowLookup, 150, 395, 500} {
				for _, limit := range []int{1, 10, 37, -1} {
					a, b := ids(t, q(late), offset, limit), ids(t, q(f.Books), offset, limit)
					if !slices.Equal(a, b) {
						t.Errorf("%v offset %d limit %d: late row lookup %v, the query %v", q(late).Ordering(), offset, limit, a, b)
					}
				}
			}
		}
	})
}
