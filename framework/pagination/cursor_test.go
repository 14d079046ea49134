package pagination_test

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/serializers"
)

// follow follows the links of kind ("next" or "previous") from path to the
// end, calling between after every request, and returns the ids seen in
// the order shown.
func follow(t *testing.T, srv *httptest.Server, path, kind string, between func()) []int {
	t.Helper()
	var seen []int
	for range 1000 {
		e := decode(t, get(t, srv, path))
		if e.Detail != "" {
			t.Fatalf("%s: %s", path, e.Detail)
		}
		if kind == "next" {
			seen = append(seen, e.ids()...)
		} else {
			seen = append(e.ids(), seen...)
		}
		between()
		link := e.Next
		if kind == "previous" {
			link = e.Previous
		}
		if link == nil {
			return seen
		}
		path = strings.TrimPrefix(*link, "http://testserver")
	}
	t.Fatal("the chain does not end")
	return nil
}

var both = []string{"next", "previous"}

// TestCursorChainsWithInserts pages through cursors forward (from the
// first page) and backward (from a reverse cursor, the end of the list)
// while another client inserts books between the requests, many with the
// very positions the cursors stand on: no book is seen twice, and every
// book that existed when the walk started is seen.
//
// Books that share a rating come in table order both ways (SQLite's
// sort is stable, as for the reference), so a new book joins the end of
// its group whichever way one pages. With a total order on the ties
// ("rating", "id"), the backward order mirrors the forward one and a new
// book enters a group at the front of the backward walk, where it shifts
// the offsets of cursors: such walks are only checked forward.
func TestCursorChainsWithInserts(t *testing.T) {
	cases := []struct {
		name     string
		ordering []string
		size     int
		// rating of the inserted books, from the book's number.
		rating func(n int) int64
		// directions are the walks checked.
		directions []string
	}{
		{"created", []string{"-created"}, 5, func(n int) int64 { return int64(n%5 + 1) }, both},
		{"created ascending, page of 7", []string{"created"}, 7, func(n int) int64 { return 3 }, both},
		{"rating", []string{"rating"}, 5, func(n int) int64 { return int64(n%5 + 1) }, both},
		{"rating, page of 3", []string{"rating"}, 3, func(n int) int64 { return int64(n*3%5 + 1) }, both},
		{"rating descending, page of 6", []string{"-rating"}, 6, func(n int) int64 { return int64(n%5 + 1) }, both},
		{"rating then id", []string{"rating", "id"}, 4, func(n int) int64 { return int64(n%5 + 1) }, []string{"next"}},
	}
	for _, c := range cases {
		for _, direction := range c.directions {
			t.Run(c.name+" "+direction, func(t *testing.T) {
				db := openBooks(t, 60)
				src := booksSource(t, db)
				srv := httptest.NewServer(styleView(src, &pagination.CursorPagination{PageSize: c.size, Ordering: c.ordering}))
				defer srv.Close()
				next := 1000
				rnd := rand.New(rand.NewPCG(1, uint64(len(c.name))))
				insert := func() {
					for range rnd.IntN(3) {
						next++
						b := seedBook(next)
						b.Rating = c.rating(next)
						// New books are the newest, or sit among the
						// existing times.
						b.Created = epoch.Add(time.Duration(rnd.IntN(200)) * time.Hour).Add(time.Second * time.Duration(next))
						insertBook(t, db, b)
					}
				}
				start := "/"
				if direction == "previous" {
					start = "/?cursor=cj0x" // base64 of r=1: the end of the list
				}
				seen := follow(t, srv, start, direction, insert)
				count := map[int]int{}
				for _, id := range seen {
					if count[id]++; count[id] == 2 {
						t.Errorf("book %d seen twice", id)
					}
				}
				for id := 1; id <= 60; id++ {
					if count[id] == 0 {
						t.Errorf("book %d never seen", id)
					}
				}
				if t.Failed() {
					t.Log(fmt.Sprint(seen))
				}
			})
		}
	}
}

// TestCursorOrderingWhenTheFilterChoosesNone: under an ordering filter
// that chooses no ordering (no ?ordering=, no default), the cursor pages
// in its own ordering, not in the source's, as DRF 3.15 does (#8954);
// the filter's choice still wins when it makes one.
func TestCursorOrderingWhenTheFilterChoosesNone(t *testing.T) {
	src := booksSource(t, openBooks(t, 20)) // ordered by id
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
		api.Handle("/books/", generics.ListAPIView(generics.GenericAPIView[book]{
			View:           framework.View{Pagination: &pagination.CursorPagination{PageSize: 3, Ordering: []string{"-created"}}},
			Source:         src,
			Serializer:     serializers.MustNew[book](),
			FilterBackends: framework.FilterBackends(filters.OrderingFilter{Fields: []string{"title", "created"}}),
		}))
		c := apitest.New(t, api)
		for path, want := range map[string]string{
			"/books/":                "[20 19 18]",
			"/books/?ordering=title": "[1 2 3]",
			"/books/?ordering=bogus": "[20 19 18]",
		} {
			e := decode(t, answer{Status: 200, Body: []byte(c.Get(path).Body)})
			if got := fmt.Sprint(e.ids()); got != want {
				t.Errorf("level %v, %s: ids %s, want %s", level, path, got, want)
			}
		}
	}
}
