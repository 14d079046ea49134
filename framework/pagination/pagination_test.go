package pagination_test

import (
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// span returns the ids from..to, counting down when to < from.
func span(from, to int) []int {
	var ids []int
	for i := from; ; {
		ids = append(ids, i)
		if i == to {
			return ids
		}
		if to > from {
			i++
		} else {
			i--
		}
	}
}

const ts = "http://testserver"

// styleCase is a request to a reference route and the answer DRF gives.
type styleCase struct {
	path           string
	status         int
	count          int // -1: no count in the envelope
	next, previous string
	ids            []int
	detail         string
}

func runStyleCases(t *testing.T, srv *httptest.Server, cases []styleCase) {
	t.Helper()
	for _, c := range cases {
		a := get(t, srv, c.path)
		if a.Status != c.status {
			t.Errorf("%s: status %d, want %d (%s)", c.path, a.Status, c.status, a.Body)
			continue
		}
		e := decode(t, a)
		if c.detail != "" || e.Detail != "" {
			if e.Detail != c.detail {
				t.Errorf("%s: detail %q, want %q", c.path, e.Detail, c.detail)
			}
			continue
		}
		count := -1
		if e.Count != nil {
			count = *e.Count
		}
		next, prev := str(e.Next), str(e.Previous)
		wantNext, wantPrev := "null", "null"
		if c.next != "" {
			wantNext = ts + c.next
		}
		if c.previous != "" {
			wantPrev = ts + c.previous
		}
		if count != c.count || next != wantNext || prev != wantPrev || !slices.Equal(e.ids(), nonNil(c.ids)) {
			t.Errorf("%s:\n got  count %d next %s previous %s ids %v\n want count %d next %s previous %s ids %v",
				c.path, count, next, prev, e.ids(), c.count, wantNext, wantPrev, c.ids)
		}
	}
}

// TestEmptyPageByCompatibility: ?page= is page 1 from DRF 3.15 on (#8578),
// 404 "Invalid page." on DRF 3.14; both references answer so on /books/.
func TestEmptyPageByCompatibility(t *testing.T) {
	src := booksSource(t, openBooks(t, 30))
	for level, want := range map[framework.Compatibility]int{framework.DRF318: 200, framework.DRF314: 404} {
		s := defaultSettings
		s.Compatibility = level
		srv := httptest.NewServer(apitest.View(framework.View{Get: list(src, nil)}, s))
		if a := get(t, srv, "/?page="); a.Status != want {
			t.Errorf("%s: ?page= is %d %s, want %d", level, a.Status, a.Body, want)
		}
		srv.Close()
	}
}

// TestPageNumber checks PageNumberPagination's parameters and errors
// (page size 5, client page size up to 20) against DRF's answers.
func TestPageNumber(t *testing.T) {
	srv := httptest.NewServer(referenceMux(booksSource(t, openBooks(t, 100))))
	defer srv.Close()
	const p = "/pages/page-number/"
	runStyleCases(t, srv, []styleCase{
		{p, 200, 100, p + "?page=2", "", span(1, 5), ""},
		{p + "?page=1", 200, 100, p + "?page=2", "", span(1, 5), ""},
		// The previous link of page 2 drops the page parameter.
		{p + "?page=2", 200, 100, p + "?page=3", p, span(6, 10), ""},
		{p + "?page=20", 200, 100, "", p + "?page=19", span(96, 100), ""},
		{p + "?page=last", 200, 100, "", p + "?page=19", span(96, 100), ""},
		{p + "?page=last&page_size=7", 200, 100, "", p + "?page=14&page_size=7", span(99, 100), ""},
		// Only the exact last page strings count.
		{p + "?page=LAST", 404, 0, "", "", nil, "Invalid page."},
		// An empty page number is page 1 (DRF 3.15, #8578; 404 at DRF 3.14
		// level: TestEmptyPageByCompatibility).
		{p + "?page=", 200, 100, p + "?page=2", "", span(1, 5), ""},
		{p + "?page=3&page=", 200, 100, p + "?page=2", "", span(1, 5), ""},
		{p + "?page=0", 404, 0, "", "", nil, "Invalid page."},
		{p + "?page=-1", 404, 0, "", "", nil, "Invalid page."},
		{p + "?page=21", 404, 0, "", "", nil, "Invalid page."},
		{p + "?page=99999999999999999999999", 404, 0, "", "", nil, "Invalid page."},
		{p + "?page=abc", 404, 0, "", "", nil, "Invalid page."},
		{p + "?page=2.0", 404, 0, "", "", nil, "Invalid page."},
		{p + "?page=%zz&x=1", 404, 0, "", "", nil, "Invalid page."},
		// Numbers as Python reads them.
		{p + "?page=%203%20", 200, 100, p + "?page=4", p + "?page=2", span(11, 15), ""},
		{p + "?page=%2B2", 200, 100, p + "?page=3", p, span(6, 10), ""},
		{p + "?page=1_0", 200, 100, p + "?page=11", p + "?page=9", span(46, 50), ""},
		{p + "?page=%D9%A3", 200, 100, p + "?page=4", p + "?page=2", span(11, 15), ""},
		// A repeated parameter counts with its last value; the links
		// replace all of them.
		{p + "?page=2&page=3", 200, 100, p + "?page=4", p + "?page=2", span(11, 15), ""},
		{p + "?page=x&page=2", 200, 100, p + "?page=3", p, span(6, 10), ""},
		// Other parameters are kept, sorted by name, encoded as a form.
		{p + "?page_size=7&z=1&a=2&page=3", 200, 100, p + "?a=2&page=4&page_size=7&z=1", p + "?a=2&page=2&page_size=7&z=1", span(15, 21), ""},
		{p + "?b=x%20y&a=%E2%82%AC&c=1%2B1&page=2", 200, 100, p + "?a=%E2%82%AC&b=x+y&c=1%2B1&page=3", p + "?a=%E2%82%AC&b=x+y&c=1%2B1", span(6, 10), ""},
		{p + "?a+b=c+d&page=2", 200, 100, p + "?a+b=c+d&page=3", p + "?a+b=c+d", span(6, 10), ""},
		{p + "?a=1&a=2&page=2", 200, 100, p + "?a=1&a=2&page=3", p + "?a=1&a=2", span(6, 10), ""},
		{p + "?q&page=2", 200, 100, p + "?page=3&q=", p + "?q=", span(6, 10), ""},
		{p + "?page=2&a=%FF", 200, 100, p + "?a=%EF%BF%BD&page=3", p + "?a=%EF%BF%BD", span(6, 10), ""},
		{p + "?a=1;page=3", 200, 100, p + "?a=1%3Bpage%3D3&page=2", "", span(1, 5), ""},
		{p + "?x=%zz&page=2", 200, 100, p + "?page=3&x=%25zz", p + "?x=%25zz", span(6, 10), ""},
		{p + "?page=2&x=~!*'()", 200, 100, p + "?page=3&x=~%21%2A%27%28%29", p + "?x=~%21%2A%27%28%29", span(6, 10), ""},
		// The page size: capped at 20, the raw value kept in the links;
		// zero, negative or garbage gives the default.
		{p + "?page_size=50", 200, 100, p + "?page=2&page_size=50", "", span(1, 20), ""},
		{p + "?page_size=99999999999999999999", 200, 100, p + "?page=2&page_size=99999999999999999999", "", span(1, 20), ""},
		{p + "?page_size=20&page=5", 200, 100, "", p + "?page=4&page_size=20", span(81, 100), ""},
		{p + "?page=20&page_size=20", 404, 0, "", "", nil, "Invalid page."},
		{p + "?page_size=0&page=2", 200, 100, p + "?page=3&page_size=0", p + "?page_size=0", span(6, 10), ""},
		{p + "?page_size=abc&page=2", 200, 100, p + "?page=3&page_size=abc", p + "?page_size=abc", span(6, 10), ""},
		{p + "?page_size=-3", 200, 100, p + "?page=2&page_size=-3", "", span(1, 5), ""},
		{p + "?page_size=%D9%A3", 200, 100, p + "?page=2&page_size=%D9%A3", "", span(1, 3), ""},
		{p + "?page=2&page_size=20&page_size=3", 200, 100, p + "?page=3&page_size=20&page_size=3", p + "?page_size=20&page_size=3", span(4, 6), ""},
		// The global default style: page numbers of PAGE_SIZE 10.
		{"/books/?page=10", 200, 100, "", "/books/?page=9", span(91, 100), ""},
	})
}

// TestLimitOffset checks LimitOffsetPagination's parameters (default limit
// 5, at most 20) against DRF's answers.
func TestLimitOffset(t *testing.T) {
	srv := httptest.NewServer(referenceMux(booksSource(t, openBooks(t, 100))))
	defer srv.Close()
	const p = "/pages/limit-offset/"
	runStyleCases(t, srv, []styleCase{
		{p, 200, 100, p + "?limit=5&offset=5", "", span(1, 5), ""},
		{p + "?limit=10", 200, 100, p + "?limit=10&offset=10", "", span(1, 10), ""},
		{p + "?limit=50", 200, 100, p + "?limit=20&offset=20", "", span(1, 20), ""},
		{p + "?limit=0", 200, 100, p + "?limit=5&offset=5", "", span(1, 5), ""},
		{p + "?limit=-1", 200, 100, p + "?limit=5&offset=5", "", span(1, 5), ""},
		{p + "?limit=abc", 200, 100, p + "?limit=5&offset=5", "", span(1, 5), ""},
		{p + "?offset=abc", 200, 100, p + "?limit=5&offset=5", "", span(1, 5), ""},
		{p + "?offset=-5", 200, 100, p + "?limit=5&offset=5", "", span(1, 5), ""},
		{p + "?offset=&limit=", 200, 100, p + "?limit=5&offset=5", "", span(1, 5), ""},
		{p + "?offset=3", 200, 100, p + "?limit=5&offset=8", p + "?limit=5", span(4, 8), ""},
		{p + "?offset=3&limit=2", 200, 100, p + "?limit=2&offset=5", p + "?limit=2&offset=1", span(4, 5), ""},
		{p + "?offset=7&limit=5", 200, 100, p + "?limit=5&offset=12", p + "?limit=5&offset=2", span(8, 12), ""},
		{p + "?offset=1_0&limit=%2B3", 200, 100, p + "?limit=3&offset=13", p + "?limit=3&offset=7", span(11, 13), ""},
		{p + "?offset=95", 200, 100, "", p + "?limit=5&offset=90", span(96, 100), ""},
		{p + "?limit=20&offset=85", 200, 100, "", p + "?limit=20&offset=65", span(86, 100), ""},
		// Past the end: no results, a previous link.
		{p + "?offset=100", 200, 100, "", p + "?limit=5&offset=95", nil, ""},
		{p + "?offset=101", 200, 100, "", p + "?limit=5&offset=96", nil, ""},
		{p + "?offset=1000&limit=3", 200, 100, "", p + "?limit=3&offset=997", nil, ""},
		{p + "?offset=99999999999999999999999", 200, 100, "", p + "?limit=5&offset=99999999999999999999994", nil, ""},
		{p + "?limit=5&offset=10&a=b", 200, 100, p + "?a=b&limit=5&offset=15", p + "?a=b&limit=5&offset=5", span(11, 15), ""},
		{p + "?offset=4&offset=9", 200, 100, p + "?limit=5&offset=14", p + "?limit=5&offset=4", span(10, 14), ""},
	})
}

// TestCursor checks CursorPagination's parameters and cursors against
// DRF's answers; full chains are in TestReferenceAnswers.
func TestCursor(t *testing.T) {
	srv := httptest.NewServer(referenceMux(booksSource(t, openBooks(t, 100))))
	defer srv.Close()
	const p = "/pages/cursor/"
	const r = "/pages/cursor-rating/"
	const o = "/pages/cursor-orderable/"
	runStyleCases(t, srv, []styleCase{
		// The position is the boundary's created as Django prints it:
		// base64 of p=2024-01-05+00%3A00%3A00%2B00%3A00.
		{p, 200, -1, p + "?cursor=cD0yMDI0LTAxLTA1KzAwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D", "", span(100, 96), ""},
		{p + "?cursor=cD0yMDI0LTAxLTA1KzAwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D", 200, -1,
			p + "?cursor=cD0yMDI0LTAxLTA0KzE5JTNBMDAlM0EwMCUyQjAwJTNBMDA%3D",
			p + "?cursor=cj0xJnA9MjAyNC0wMS0wNCsyMyUzQTAwJTNBMDAlMkIwMCUzQTAw", span(95, 91), ""},
		{p + "?page_size=3&x=1", 200, -1, p + "?cursor=cD0yMDI0LTAxLTA1KzAyJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D&page_size=3&x=1", "", span(100, 98), ""},
		{p + "?page_size=50", 200, -1, p + "?cursor=cD0yMDI0LTAxLTA0KzA5JTNBMDAlM0EwMCUyQjAwJTNBMDA%3D&page_size=50", "", span(100, 81), ""},
		// An empty cursor, or one of no data, is the first page.
		{p + "?cursor=", 200, -1, p + "?cursor=cD0yMDI0LTAxLTA1KzAwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D", "", span(100, 96), ""},
		{p + "?cursor=%3D%3D%3D%3D", 200, -1, p + "?cursor=cD0yMDI0LTAxLTA1KzAwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D", "", span(100, 96), ""},
		// Cursors that do not decode: 404.
		{p + "?cursor=abc", 404, 0, "", "", nil, "Invalid cursor"},
		{p + "?cursor=cD0", 404, 0, "", "", nil, "Invalid cursor"},
		{p + "?cursor=%C3%A9", 404, 0, "", "", nil, "Invalid cursor"},
		{p + "?cursor=gA%3D%3D", 404, 0, "", "", nil, "Invalid cursor"},
		{p + "?cursor=bz0tMQ%3D%3D", 404, 0, "", "", nil, "Invalid cursor"}, // o=-1
		{p + "?cursor=bz1hYmM%3D", 404, 0, "", "", nil, "Invalid cursor"},   // o=abc
		{p + "?cursor=bz0%3D", 404, 0, "", "", nil, "Invalid cursor"},       // o=
		{p + "?cursor=cj14", 404, 0, "", "", nil, "Invalid cursor"},         // r=x
		// A position that is not a time: 404 (DRF fails with 500).
		{p + "?cursor=cD1hYmM%3D", 404, 0, "", "", nil, "Invalid cursor"}, // p=abc
		{p + "?cursor=cD0%3D", 404, 0, "", "", nil, "Invalid cursor"},     // p=
		{r + "?cursor=cD1hYmM%3D", 404, 0, "", "", nil, "Invalid cursor"}, // p=abc on an integer
		// Offsets beyond the cutoff count as 1000.
		{p + "?cursor=bz01MDAwJnA9MjAyNC0wMS0wNSswMCUzQTAwJTNBMDAlMkIwMCUzQTAw", 200, -1, "",
			p + "?cursor=cj0xJnA9MjAyNC0wMS0wNSswMCUzQTAwJTNBMDAlMkIwMCUzQTAw", nil, ""},
		// Any non-zero r reverses.
		{p + "?cursor=cj0yJnA9MjAyNC0wMS0wNSswMCUzQTAwJTNBMDAlMkIwMCUzQTAw", 200, -1,
			p + "?cursor=cD0yMDI0LTAxLTA1KzAxJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D", "", span(100, 97), ""},
		// Offsets in either direction.
		{p + "?cursor=bz0z", 200, -1, p + "?cursor=cD0yMDI0LTAxLTA0KzIxJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D",
			p + "?cursor=bz0xJnI9MSZwPTIwMjQtMDEtMDUrMDAlM0EwMCUzQTAwJTJCMDAlM0EwMA%3D%3D", span(97, 93), ""},
		{p + "?cursor=bz0zJnI9MQ%3D%3D", 200, -1, p + "?cursor=bz0xJnA9MjAyNC0wMS0wMSswNSUzQTAwJTNBMDAlMkIwMCUzQTAw",
			p + "?cursor=cj0xJnA9MjAyNC0wMS0wMSswOCUzQTAwJTNBMDAlMkIwMCUzQTAw", span(8, 4), ""},
		// A non-unique ordering: the first page of rating 1 links with an
		// offset and no position.
		{r, 200, -1, r + "?cursor=bz01", "", []int{5, 10, 15, 20, 25}, ""},
		{r + "?cursor=bz01", 200, -1, r + "?cursor=bz0xMA%3D%3D", r + "?cursor=cj0xJnA9MQ%3D%3D", []int{30, 35, 40, 45, 50}, ""},
		// The ordering filter decides the ordering; an unknown field
		// gives the view's default.
		{o + "?ordering=title", 200, -1, o + "?cursor=cD1Cb29rKzAwNQ%3D%3D&ordering=title", "", span(1, 5), ""},
		{o + "?ordering=-id", 200, -1, o + "?cursor=cD05Ng%3D%3D&ordering=-id", "", span(100, 96), ""},
		{o + "?ordering=bogus", 200, -1, o + "?cursor=cD0yMDI0LTAxLTA1KzAwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D&ordering=bogus", "", span(100, 96), ""},
	})
}

// TestEmptyAndUnpaginated checks empty sources (page 1 with count 0, any
// other page 404), styles with no page size (the whole list, unpaginated)
// and pagination turned off.
func TestEmptyAndUnpaginated(t *testing.T) {
	src := booksSource(t, openBooks(t, 0))
	mux := referenceMux(src)
	noSize := framework.Settings{}
	mux.Handle("/unsized/page-number/", apitest.View(framework.View{Pagination: &pagination.PageNumberPagination{}, Get: list(booksSource(t, openBooks(t, 3)), nil)}, noSize))
	mux.Handle("/unsized/cursor/", apitest.View(framework.View{Pagination: &pagination.CursorPagination{}, Get: list(booksSource(t, openBooks(t, 3)), nil)}, noSize))
	mux.Handle("/unsized/limit-offset/", apitest.View(framework.View{Pagination: &pagination.LimitOffsetPagination{}, Get: list(booksSource(t, openBooks(t, 3)), nil)}, noSize))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	runStyleCases(t, srv, []styleCase{
		{"/pages/page-number/", 200, 0, "", "", nil, ""},
		{"/pages/page-number/?page=last", 200, 0, "", "", nil, ""},
		{"/pages/page-number/?page=1", 200, 0, "", "", nil, ""},
		{"/pages/page-number/?page=2", 404, 0, "", "", nil, "Invalid page."},
		{"/pages/limit-offset/", 200, 0, "", "", nil, ""},
		{"/pages/limit-offset/?offset=10", 200, 0, "", "/pages/limit-offset/?limit=5&offset=5", nil, ""},
		{"/pages/cursor/", 200, -1, "", "", nil, ""},
		{"/pages/cursor-rating/?cursor=cD0z", 200, -1, "", "/pages/cursor-rating/?cursor=cj0xJnA9Mw%3D%3D", nil, ""},
		// With a limit, limit/offset paginates even without a default.
		{"/unsized/limit-offset/?limit=2", 200, 3, "/unsized/limit-offset/?limit=2&offset=2", "", span(1, 2), ""},
	})
	for _, path := range []string{"/unsized/page-number/?page=2", "/unsized/cursor/", "/unsized/limit-offset/", "/pages/off/"} {
		a := get(t, srv, path)
		var items []book
		if err := json.Unmarshal(a.Body, &items); a.Status != 200 || err != nil {
			t.Errorf("%s: %d %s: not a bare list", path, a.Status, a.Body)
		}
		if want := map[bool]int{true: 0, false: 3}[path == "/pages/off/"]; len(items) != want {
			t.Errorf("%s: %d items, want %d", path, len(items), want)
		}
	}
}

// TestEnvelopes checks the bodies byte for byte: DRF's key order, links
// with raw ampersands, and the bare list with Link header and the nested
// links of the sample's custom styles.
func TestEnvelopes(t *testing.T) {
	srv := httptest.NewServer(referenceMux(booksSource(t, openBooks(t, 100))))
	defer srv.Close()
	item := func(i int) string {
		b, _ := json.Marshal(seedBook(i))
		return string(b)
	}
	items := func(ids ...int) string {
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = item(id)
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	cases := []struct{ path, link, body string }{
		{"/pages/page-number/?page=2&a=1", "",
			`{"count":100,"next":"http://testserver/pages/page-number/?a=1&page=3","previous":"http://testserver/pages/page-number/?a=1","results":` + items(span(6, 10)...) + `}`},
		{"/pages/limit-offset/?offset=95", "",
			`{"count":100,"next":null,"previous":"http://testserver/pages/limit-offset/?limit=5&offset=90","results":` + items(span(96, 100)...) + `}`},
		{"/pages/limit-offset/?offset=200", "",
			`{"count":100,"next":null,"previous":"http://testserver/pages/limit-offset/?limit=5&offset=195","results":[]}`},
		{"/pages/cursor/?page_size=2", "",
			`{"next":"http://testserver/pages/cursor/?cursor=cD0yMDI0LTAxLTA1KzAzJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D&page_size=2","previous":null,"results":` + items(100, 99) + `}`},
		{"/pages/link-header/", `<http://testserver/pages/link-header/?page=2>; rel="next"`, items(span(1, 5)...)},
		{"/pages/link-header/?page=3", `<http://testserver/pages/link-header/?page=4>; rel="next", <http://testserver/pages/link-header/?page=2>; rel="prev"`, items(span(11, 15)...)},
		{"/pages/link-header/?page=last", `<http://testserver/pages/link-header/?page=19>; rel="prev"`, items(span(96, 100)...)},
		{"/pages/nested-links/?page=2", "",
			`{"links":{"next":"http://testserver/pages/nested-links/?page=3","previous":"http://testserver/pages/nested-links/"},"count":100,"results":` + items(span(6, 10)...) + `}`},
		{"/pages/nested-links/", "",
			`{"links":{"next":"http://testserver/pages/nested-links/?page=2","previous":null},"count":100,"results":` + items(span(1, 5)...) + `}`},
	}
	for _, c := range cases {
		a := get(t, srv, c.path)
		if a.Status != 200 || a.Link != c.link || string(a.Body) != c.body {
			t.Errorf("%s:\n got  %d Link %q %s\n want 200 Link %q %s", c.path, a.Status, a.Link, a.Body, c.link, c.body)
		}
	}
	// A single page has no Link header at all.
	one := httptest.NewServer(styleView(booksSource(t, openBooks(t, 3)), &pagination.LinkHeaderPagination{PageNumberPagination: pagination.PageNumberPagination{PageSize: 5}}))
	defer one.Close()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, one.URL, nil)
	resp, err := one.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, ok := resp.Header["Link"]; ok {
		t.Errorf("single page: Link header %q", resp.Header["Link"])
	}
}

// TestAbsoluteLinks checks the scheme and host of links: the request's,
// and the forwarded ones only when the routes trust them.
func TestAbsoluteLinks(t *testing.T) {
	src := booksSource(t, openBooks(t, 20))
	style := &pagination.PageNumberPagination{PageSize: 5}
	serve := func(trust bool) *httptest.Server {
		r := chi.NewRouter()
		routes := reverse.New(reverse.Config{TrustForwardedHeaders: trust})
		routes.Handle(r, "/books/", styleView(src, style), reverse.Named("book-list"))
		return httptest.NewServer(r)
	}
	forwarded := []string{"X-Forwarded-Proto", "https", "X-Forwarded-Host", "api.example.com"}
	for _, c := range []struct {
		trust  bool
		header []string
		next   string
	}{
		{false, nil, "http://testserver/books/?page=2"},
		{false, forwarded, "http://testserver/books/?page=2"},
		{true, forwarded, "https://api.example.com/books/?page=2"},
		{true, nil, "http://testserver/books/?page=2"},
	} {
		srv := serve(c.trust)
		e := decode(t, get(t, srv, "/books/", c.header...))
		srv.Close()
		if str(e.Next) != c.next {
			t.Errorf("trust %v, headers %v: next %s, want %s", c.trust, c.header, str(e.Next), c.next)
		}
	}
	tls := httptest.NewTLSServer(styleView(src, style))
	defer tls.Close()
	if e := decode(t, get(t, tls, "/x%20y/")); str(e.Next) != "https://testserver/x%20y/?page=2" {
		t.Errorf("TLS: next %s", str(e.Next))
	}
}

// paginate runs style over src for target in-process.
func paginate(t *testing.T, style framework.Paginator, src queryset.Source[book], target string) framework.Page {
	t.Helper()
	hr := httptest.NewRequest(http.MethodGet, target, nil)
	hr.Host = "testserver"
	page, err := style.Paginate(request.New(hr, request.Config{}), queryset.Into(src, nil))
	if err != nil {
		t.Fatal(err)
	}
	return page
}

var spaces = regexp.MustCompile(`>\s+<`)

func controls(p framework.Page) string {
	return strings.TrimSpace(spaces.ReplaceAllString(string(p.(pagination.Controls).HTMLControls()), "><"))
}

// TestControls checks the browsable controls: DRF's numbered markup with
// its choice of pages, the cursor pager, none for a single page or a
// style without template, a custom template, and a custom style that
// turns the controls on.
func TestControls(t *testing.T) {
	src := booksSource(t, openBooks(t, 80))
	numbers := &pagination.PageNumberPagination{PageSize: 5}
	u := func(q string) string { return "http://testserver/b/" + q }
	li := func(q string, n string, class string) string {
		if class != "" {
			class = ` class="` + class + `"`
		}
		return `<li` + class + `><a href="` + u(q) + `">` + n + `</a></li>`
	}
	brk := `<li class="disabled"><a href="#"><span aria-hidden="true">&hellip;</span></a></li>`
	// DRF 3.18's markup; DRF 3.14's has an inline style and no rel or
	// aria attributes on the pager (#9905), below.
	want := `<ul class="pagination">` +
		`<li><a href="` + u("?a=1&amp;page=13") + `" aria-label="Previous"><span aria-hidden="true">&laquo;</span></a></li>` +
		li("?a=1", "1", "") + brk + li("?a=1&amp;page=13", "13", "") + li("?a=1&amp;page=14", "14", "active") +
		li("?a=1&amp;page=15", "15", "") + li("?a=1&amp;page=16", "16", "") +
		`<li><a href="` + u("?a=1&amp;page=15") + `" aria-label="Next"><span aria-hidden="true">&raquo;</span></a></li></ul>`
	if got := controls(paginate(t, numbers, src, "/b/?page=14&a=1")); got != want {
		t.Errorf("page 14 of 16:\n got  %s\n want %s", got, want)
	}
	// Limit/offset: pages of limit items around the offset (current 4 of
	// 9 here), the page links moving the offset only.
	wantLO := `<ul class="pagination">` +
		`<li><a href="` + u("?limit=10&amp;offset=15") + `" aria-label="Previous"><span aria-hidden="true">&laquo;</span></a></li>` +
		li("", "1", "") + li("?offset=5", "2", "") + li("?offset=15", "3", "") + li("?offset=25", "4", "active") +
		li("?offset=35", "5", "") + brk + li("?offset=75", "9", "") +
		`<li><a href="` + u("?limit=10&amp;offset=35") + `" aria-label="Next"><span aria-hidden="true">&raquo;</span></a></li></ul>`
	if got := controls(paginate(t, &pagination.LimitOffsetPagination{DefaultLimit: 10}, src, "/b/?offset=25")); got != wantLO {
		t.Errorf("limit/offset at 25:\n got  %s\n want %s", got, wantLO)
	}
	cur := controls(paginate(t, &pagination.CursorPagination{PageSize: 5, Ordering: []string{"id"}}, src, "/b/"))
	wantCur := `<ul class="pager"><li class="previous disabled" aria-disabled="true"><a href="#" tabindex="-1" aria-disabled="true">&laquo; Previous</a></li>` +
		`<li class="next"><a href="http://testserver/b/?cursor=cD01" rel="next" aria-label="Next page">Next &raquo;</a></li></ul>`
	if cur != wantCur {
		t.Errorf("cursor controls:\n got  %s\n want %s", cur, wantCur)
	}
	at314 := &framework.Settings{Compatibility: framework.DRF314}
	old, err := (&pagination.PageNumberPagination{PageSize: 5}).Setup(at314)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := controls(paginate(t, old, src, "/b/?page=14&a=1")), strings.Replace(want, `<ul class="pagination">`, `<ul class="pagination" style="margin: 5px 0 10px 0">`, 1); got != want {
		t.Errorf("page 14 of 16 at DRF 3.14 level:\n got  %s\n want %s", got, want)
	}
	oldCur, err := (&pagination.CursorPagination{PageSize: 5, Ordering: []string{"id"}}).Setup(at314)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := controls(paginate(t, oldCur, src, "/b/")), `<ul class="pager"><li class="previous disabled"><a href="#">&laquo; Previous</a></li>`+
		`<li class="next"><a href="http://testserver/b/?cursor=cD01">Next &raquo;</a></li></ul>`; got != want {
		t.Errorf("cursor controls at DRF 3.14 level:\n got  %s\n want %s", got, want)
	}
	few := booksSource(t, openBooks(t, 4))
	single := paginate(t, numbers, few, "/b/")
	if c := controls(single); c != "" || single.(interface{ DisplayControls() bool }).DisplayControls() {
		t.Errorf("single page: controls %q", c)
	}
	off := paginate(t, &pagination.PageNumberPagination{PageSize: 5, Template: pagination.NoTemplate}, src, "/b/")
	if c := controls(off); c != "" || off.(interface{ DisplayControls() bool }).DisplayControls() {
		t.Errorf("template none: controls %q", c)
	}
	custom := template.Must(template.New("c").Parse(`{{.PreviousURL}}|{{.NextURL}}|{{range .PageLinks}}{{if .IsBreak}}…{{else}}{{.Number}}{{end}},{{end}}`))
	if c := controls(paginate(t, &pagination.PageNumberPagination{PageSize: 5, Template: custom}, src, "/b/?page=2")); c != "http://testserver/b/|http://testserver/b/?page=3|1,2,3,…,16," {
		t.Errorf("custom template: %q", c)
	}
	always := paginate(t, &alwaysControls{pagination.PageNumberPagination{PageSize: 5}}, few, "/b/")
	if c := controls(always); !strings.Contains(c, li("", "1", "active")) {
		t.Errorf("custom style turning controls on: %q", c)
	}
}

// alwaysControls is a custom style that shows its controls even on a
// single page.
type alwaysControls struct {
	pagination.PageNumberPagination
}

func (a *alwaysControls) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	page, err := a.Page(r, q)
	if page == nil {
		return nil, err
	}
	page.SetDisplayControls(true)
	return page, nil
}

// TestSchemaParameters checks each style's query parameters for OpenAPI.
func TestSchemaParameters(t *testing.T) {
	v := &framework.View{}
	cases := []struct {
		style interface {
			SchemaParameters(*framework.View) []pagination.SchemaParameter
		}
		want string
	}{
		{&pagination.PageNumberPagination{},
			`[{"name":"page","required":false,"in":"query","description":"A page number within the paginated result set.","schema":{"type":"integer"}}]`},
		{&pagination.PageNumberPagination{PageQueryParam: "p", PageSizeQueryParam: "size"},
			`[{"name":"p","required":false,"in":"query","description":"A page number within the paginated result set.","schema":{"type":"integer"}},` +
				`{"name":"size","required":false,"in":"query","description":"Number of results to return per page.","schema":{"type":"integer"}}]`},
		{&pagination.LimitOffsetPagination{},
			`[{"name":"limit","required":false,"in":"query","description":"Number of results to return per page.","schema":{"type":"integer"}},` +
				`{"name":"offset","required":false,"in":"query","description":"The initial index from which to return the results.","schema":{"type":"integer"}}]`},
		{&pagination.CursorPagination{PageSizeQueryParam: "page_size"},
			`[{"name":"cursor","required":false,"in":"query","description":"The pagination cursor value.","schema":{"type":"string"}},` +
				`{"name":"page_size","required":false,"in":"query","description":"Number of results to return per page.","schema":{"type":"integer"}}]`},
		{&pagination.LinkHeaderPagination{},
			`[{"name":"page","required":false,"in":"query","description":"A page number within the paginated result set.","schema":{"type":"integer"}}]`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.style.SchemaParameters(v))
		if err != nil || string(got) != c.want {
			t.Errorf("%T: %s, %v\n want %s", c.style, got, err, c.want)
		}
	}
}

// TestResponseSchema checks each style's envelope for OpenAPI: the count
// and results required, the links not (DRF 3.15), DRF's example links
// (limit/offset's with both parameters, the cursor's with its stray
// quote), and DRF 3.14's envelopes at that level, nothing required and
// the cursor's links without format or example.
func TestResponseSchema(t *testing.T) {
	results := map[string]any{"type": "array"}
	link := func(q string) string { // as json.Marshal escapes it
		return `{"example":"http://api.example.org/accounts/?` + strings.ReplaceAll(q, "&", `\u0026`) + `","format":"uri","type":["string","null"]}`
	}
	count := `"count":{"example":123,"type":"integer"}`
	at314 := func(p framework.PaginatorSetup) framework.Paginator {
		r, err := p.Setup(&framework.Settings{Compatibility: framework.DRF314, PageSize: 5})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases := []struct {
		style any
		want  string
	}{
		{&pagination.PageNumberPagination{PageQueryParam: "p"}, `{"properties":{` + count + `,"next":` + link("p=4") + `,"previous":` + link("p=2") +
			`,"results":{"type":"array"}},"required":["count","results"],"type":"object"}`},
		{at314(&pagination.PageNumberPagination{PageQueryParam: "p"}), `{"properties":{` + count + `,"next":` + link("p=4") + `,"previous":` + link("p=2") +
			`,"results":{"type":"array"}},"type":"object"}`},
		{&pagination.LimitOffsetPagination{}, `{"properties":{` + count + `,"next":` + link("offset=400&limit=100") + `,"previous":` + link("offset=200&limit=100") +
			`,"results":{"type":"array"}},"required":["count","results"],"type":"object"}`},
		{at314(&pagination.LimitOffsetPagination{LimitQueryParam: "l"}), `{"properties":{` + count + `,"next":` + link("offset=400&l=100") + `,"previous":` + link("offset=200&l=100") +
			`,"results":{"type":"array"}},"type":"object"}`},
		{&pagination.LimitOffsetPagination{Count: pagination.NoCount}, `{"properties":{"next":` + link("offset=400&limit=100") + `,"previous":` + link("offset=200&limit=100") +
			`,"results":{"type":"array"}},"required":["results"],"type":"object"}`},
		{&pagination.PageNumberPagination{Count: pagination.EstimatedCount}, `{"properties":{` + count + `,"count_estimated":{"type":"boolean"},"next":` + link("page=4") + `,"previous":` + link("page=2") +
			`,"results":{"type":"array"}},"required":["count","count_estimated","results"],"type":"object"}`},
		{&pagination.CursorPagination{}, `{"properties":{"next":` + link(`cursor=cD00ODY%3D\"`) + `,"previous":` + link("cursor=cj0xJnA9NDg3") +
			`,"results":{"type":"array"}},"required":["results"],"type":"object"}`},
		{at314(&pagination.CursorPagination{}), `{"properties":{"next":{"type":["string","null"]},"previous":{"type":["string","null"]}` +
			`,"results":{"type":"array"}},"type":"object"}`},
		{&pagination.KeysetPagination{CursorQueryParam: "c"}, `{"properties":{"next":` + link("c=cD00ODY%3D") + `,"previous":` + link("c=cj0xJnA9NDg3") +
			`,"results":{"type":"array"}},"required":["results"],"type":"object"}`},
		{&pagination.LinkHeaderPagination{}, `{"type":"array"}`},
		{&pagination.NestedLinksPagination{}, `{"properties":{` + count + `,"links":{"properties":{"next":` + link("page=4") + `,"previous":` + link("page=2") +
			`},"required":["next","previous"],"type":"object"},"results":{"type":"array"}},"required":["count","links","results"],"type":"object"}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.style.(interface{ ResponseSchema(any) any }).ResponseSchema(results))
		if err != nil || string(got) != c.want {
			t.Errorf("%T:\n got %s %v\nwant %s", c.style, got, err, c.want)
		}
	}
}

// TestCheck checks the setup validation of cursor orderings.
func TestCheck(t *testing.T) {
	src := queryset.Into(booksSource(t, openBooks(t, 1)), nil)
	cases := []struct {
		ordering []string
		src      query.Query
		err      string
	}{
		{nil, src, ""},
		{[]string{"rating", "-id"}, pagination.FilterOrdered(src), ""},
		{[]string{}, src, "needs an ordering"},
		{[]string{"-"}, src, "orderings must be fields"},
		{[]string{"owner__username"}, src, "orderings must be fields"},
		{[]string{"id", "nope"}, src, `has no field "nope"`},
	}
	for _, c := range cases {
		err := (&pagination.CursorPagination{Ordering: c.ordering}).Check(c.src)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: error %v, want %q", c.ordering, err, c.err)
		}
	}
}
