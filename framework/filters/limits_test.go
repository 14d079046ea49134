package filters_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	qt "github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// bookFilter is the sample's /eco/books/ FilterSet, with a range and an
// iexact filter besides.
var bookFilter = filters.FilterSet{Filters: slices.Concat(
	filters.Lookups("rating", filters.Number, query.Exact, query.GTE, query.LTE, query.In, query.Range),
	filters.Lookups("title", filters.Text, query.Exact, query.IContains, query.IExact),
	filters.Lookups("author", filters.Text, query.Exact, query.In),
)}

// bookSearch is the sample's SearchFilter.
var bookSearch = filters.SearchFilter{Fields: []string{"title", "author"}}

// booksView answers a list request for books filtered by fs, then
// ordered and searched by s, as the sample's /eco/books/ does: the ids of
// the books ("200 [1 2]"), an API exception's status and body, as the
// exception handler renders it, and any other error as the 500 a view
// answers with it.
func booksView(books queryset.Source[qt.Book], fs filters.FilterSet, s filters.SearchFilter) func(rawQuery string) string {
	backends := []framework.FilterBackend{fs, filters.OrderingFilter{Fields: []string{"rating", "id"}}, s}
	return func(rawQuery string) string {
		var rows queryset.Rows[qt.Book]
		q := queryset.Into(books, &rows)
		var err error
		for _, b := range backends {
			if q, err = b.Filter(req(rawQuery), q); err != nil {
				break
			}
		}
		if err == nil {
			_, err = q.Fetch(context.Background(), 0, -1)
		}
		var api *exceptions.APIException
		switch {
		case errors.As(err, &api):
			return strconv.Itoa(api.Status) + " " + api.Error()
		case err != nil:
			return "500 " + err.Error()
		}
		ids := []int64{}
		for _, b := range rows.Items {
			ids = append(ids, b.ID)
		}
		return fmt.Sprint("200 ", ids)
	}
}

// numbers is "from,from+1,...", n numbers.
func numbers(from, n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(from + i)
	}
	return strings.Join(s, ",")
}

// TestHugeFilterLists: a list longer than the FilterSet allows (1000
// items by default) is 400 naming its parameter, where it was a 500 on
// both databases (too many SQL variables on SQLite, bind parameters on
// PostgreSQL); a list of 1000 answers as before, and so does a range,
// which takes two values whatever the number given.
func TestHugeFilterLists(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		h := booksView(qt.OpenDB(t, db, 20).Books, bookFilter, bookSearch)
		all := h("rating__in=1,2,3,4,5")
		if !strings.HasPrefix(all, "200 [1 ") {
			t.Fatalf("rating__in=1,2,3,4,5: %.100s", all)
		}
		authors := make([]string, 70000)
		for i := range authors {
			authors[i] = "Author " + strconv.Itoa(i)
		}
		for q, want := range map[string]string{
			"rating__in=" + numbers(1, 70000):         `400 {"rating__in":["List contains 70000 items, it should contain no more than 1000."]}`,
			"rating__in=" + numbers(1, 1001):          `400 {"rating__in":["List contains 1001 items, it should contain no more than 1000."]}`,
			"rating__in=" + numbers(-994, 1000):       all,
			"rating__in=" + strings.Repeat(",", 1000): `400 {"rating__in":["List contains 1001 items, it should contain no more than 1000."]}`,
			"rating__range=" + numbers(1, 70000):      `400 {"rating__range":["Range query expects two values."]}`,
			"author__in=" + url.QueryEscape(strings.Join(authors, ",")) + "&rating__in=" + numbers(1, 70000) + "&rating=x": `400 {"rating":["Enter a number."],"rating__in":["List contains 70000 items, it should contain no more than 1000."],"author__in":["List contains 70000 items, it should contain no more than 1000."]}`,
		} {
			if got := h(q); got != want {
				t.Errorf("?%.60s...: %.300s\nwant %.300s", q, got, want)
			}
		}
	})
}

// TestHugeSearch: a search term too long for SQLite's LIKE (60,000
// characters), or more distinct terms than SearchFilter allows, is 400
// {"search": [...]}, where both were 500 on SQLite; a term repeated 1000
// times answers as the term once (one condition, as Django 3.2's query
// makes it), and terms at the bounds (100 terms, 10,000 characters of
// the widest escaping) answer 200.
func TestHugeSearch(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		h := booksView(qt.OpenDB(t, db, 20).Books, bookFilter, bookSearch)
		distinct := func(n int) string {
			terms := make([]string, n)
			for i := range terms {
				terms[i] = "t" + strconv.Itoa(i)
			}
			return strings.Join(terms, "+")
		}
		book, one := h("search=book"), h("search=001")
		if !strings.HasPrefix(book, "200 [1 ") || one != "200 [1]" {
			t.Fatalf("search=book: %.100s; search=001: %.100s", book, one)
		}
		for q, want := range map[string]string{
			"search=" + strings.Repeat("x", 60000):                        `400 {"search":["Ensure that no search term has more than 10000 characters."]}`,
			"search=" + strings.Repeat("%25", 26000):                      `400 {"search":["Ensure that no search term has more than 10000 characters."]}`,
			"search=" + strings.Repeat("%25", 10000):                      "200 []",
			"search=" + strings.Repeat("%F0%9D%94%81", 10000):             "200 []",
			"search=" + strings.Repeat("book+", 1000):                     book,
			"search=" + strings.Repeat("BOOK,001,", 1000):                 one,
			"search=" + distinct(100):                                     "200 []",
			"search=" + distinct(101):                                     `400 {"search":["Ensure that there are no more than 100 search terms."]}`,
			"search=" + distinct(1000) + "+" + strings.Repeat("y", 10001): `400 {"search":["Ensure that there are no more than 100 search terms.","Ensure that no search term has more than 10000 characters."]}`,
		} {
			if got := h(q); got != want {
				t.Errorf("?%.60s...: %.300s\nwant %.300s", q, got, want)
			}
		}
	})
}

// TestHugePatterns: a contains, icontains or iexact filter's value, which
// SQLite reads as a LIKE pattern, is at most 10,000 characters: longer is
// 400 with Django's max_length message, where it was a 500 on SQLite; an
// exact filter, which is no pattern, takes any length.
func TestHugePatterns(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		h := booksView(qt.OpenDB(t, db, 20).Books, bookFilter, bookSearch)
		for q, want := range map[string]string{
			"title__icontains=" + strings.Repeat("%25", 26000): `400 {"title__icontains":["Ensure this value has at most 10000 characters (it has 26000)."]}`,
			"title__iexact=" + strings.Repeat("x", 60000):      `400 {"title__iexact":["Ensure this value has at most 10000 characters (it has 60000)."]}`,
			"title__icontains=" + strings.Repeat("%25", 10000): "200 []",
			"title__iexact=" + strings.Repeat("_", 10000):      "200 []",
			"title=" + strings.Repeat("x", 60000):              "200 []",
		} {
			if got := h(q); got != want {
				t.Errorf("?%.60s...: %.300s\nwant %.300s", q, got, want)
			}
		}
	})
}

// TestLimitsAreConfigurable: a FilterSet's and a SearchFilter's bounds are
// theirs to set; a pattern is measured once stripped, in characters, and
// the messages name the parameter as it is called.
func TestLimitsAreConfigurable(t *testing.T) {
	fs := filters.FilterSet{
		Filters: []filters.Filter{
			{Field: "value", Lookup: query.In, Value: filters.Number},
			{Param: "note", Field: "note", Lookup: query.IContains},
		},
		MaxListValues:    3,
		MaxPatternLength: 4,
	}
	readingID := func(r *reading) int64 { return r.ID }
	for q, want := range map[string]string{
		"value__in=1.5,2.5,10":     "[1 2 3]",
		"value__in=1.5,,10,":       `400 {"value__in":["List contains 4 items, it should contain no more than 3."]}`,
		"note=%20see%C3%A9%20":     "[]",
		"note=seen%C3%A9":          `400 {"note":["Ensure this value has at most 4 characters (it has 5)."]}`,
		"note=seens&value__in=,,,": `400 {"value__in":["List contains 4 items, it should contain no more than 3."],"note":["Ensure this value has at most 4 characters (it has 5)."]}`,
	} {
		if got := outcome(t, fs, readings, q, readingID); got != want {
			t.Errorf("?%s: %s, want %s", q, got, want)
		}
	}
	s := filters.SearchFilter{Param: "q", Fields: []string{"title", "tag"}, MaxTerms: 2, MaxTermLength: 4}
	rowID := func(r *row) int64 { return r.ID }
	for q, want := range map[string]string{
		"q=go+go,book+go":                  "[1]",
		"q=%C3%A9%C3%A9%C3%A9%C3%A9":       "[]",
		"q=go+book+x":                      `400 {"q":["Ensure that there are no more than 2 search terms."]}`,
		"q=gopher":                         `400 {"q":["Ensure that no search term has more than 4 characters."]}`,
		"q=%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9": `400 {"q":["Ensure that no search term has more than 4 characters."]}`,
		"q=a+b+gopher":                     `400 {"q":["Ensure that there are no more than 2 search terms.","Ensure that no search term has more than 4 characters."]}`,
		"search=gopher+x+y":                "[1 2 3 4]",
	} {
		if got := outcome(t, s, rows, q, rowID); got != want {
			t.Errorf("?%s: %s, want %s", q, got, want)
		}
	}
}

// outcome is the ids b narrows src to for the request ?rawQuery ("[1 2]"),
// or "400 " and the body of the error refusing it.
func outcome[T any](t *testing.T, b framework.FilterBackend, src queryset.Source[T], rawQuery string, id func(*T) int64) string {
	t.Helper()
	var got queryset.Rows[T]
	q, err := b.Filter(req(rawQuery), queryset.Into(src, &got))
	if err != nil {
		return "400 " + body(t, err)
	}
	if _, err := q.Fetch(t.Context(), 0, -1); err != nil {
		t.Fatal(err)
	}
	ids := []int64{}
	for _, it := range got.Items {
		ids = append(ids, id(it))
	}
	return fmt.Sprint(ids)
}
