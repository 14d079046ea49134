package pagination_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
)

// fuzzBook is an item of the fuzzed lists: the demo books' id, rating and
// created.
type fuzzBook struct {
	ID      int       `db:"id" json:"id"`
	Rating  int       `db:"rating" json:"rating"`
	Created time.Time `db:"created" json:"created"`
}

// fuzzRating is the rating of book id.
func fuzzRating(id int) int { return id*7%5 + 1 }

// fuzzCount is the number of books of the fuzzed lists.
const fuzzCount = 23

// fuzzServer serves fuzzCount demo books over a slice source with the
// sample's styles: page numbers (5, page_size up to 20), limit/offset
// (5, up to 20), cursors by -created (5, page_size up to 20) and cursors by
// the non-unique rating (5).
func fuzzServer() http.Handler {
	books := make([]fuzzBook, fuzzCount)
	for i := range books {
		n := i + 1
		books[i] = fuzzBook{ID: n, Rating: fuzzRating(n), Created: time.Date(2024, 1, 1, n, 0, 0, 0, time.UTC)}
	}
	src := queryset.MustSlice(books, query.Order{Field: "id"})
	handle := list(src, nil)
	view := func(p framework.Paginator) http.Handler {
		return apitest.View(framework.View{Pagination: p, Get: handle})
	}
	mux := http.NewServeMux()
	mux.Handle("/page-number/", view(&pagination.PageNumberPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20}))
	mux.Handle("/limit-offset/", view(&pagination.LimitOffsetPagination{DefaultLimit: 5, MaxLimit: 20}))
	mux.Handle("/cursor/", view(&pagination.CursorPagination{PageSize: 5, Ordering: []string{"-created"}, PageSizeQueryParam: "page_size", MaxPageSize: 20}))
	mux.Handle("/cursor-rating/", view(&pagination.CursorPagination{PageSize: 5, Ordering: []string{"rating"}}))
	return mux
}

// fuzzPage is a decoded answer.
type fuzzPage struct {
	status   int
	count    *int
	next     string
	previous string
	ids      []int
	detail   string
}

// fuzzGet requests target (a path and query, or an absolute link of a
// previous answer) and decodes the answer; anything but JSON fails.
func fuzzGet(t *testing.T, h http.Handler, target string) fuzzPage {
	t.Helper()
	if u, err := url.Parse(target); err == nil && u.IsAbs() {
		if u.Host != "testserver" {
			t.Fatalf("link %q leaves the site", target)
		}
		target = u.RequestURI()
	}
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host = "testserver"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body struct {
		Count    *int
		Next     *string
		Previous *string
		Results  []fuzzBook
		Detail   string
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("GET %s: %d with a body that is not JSON: %q", target, rec.Code, rec.Body.String())
	}
	p := fuzzPage{status: rec.Code, count: body.Count, detail: body.Detail}
	if body.Next != nil {
		p.next = *body.Next
	}
	if body.Previous != nil {
		p.previous = *body.Previous
	}
	for _, b := range body.Results {
		p.ids = append(p.ids, b.ID)
	}
	return p
}

// fuzzPlain matches the values whose meaning is unambiguous: a few ASCII
// digits.
var fuzzPlain = regexp.MustCompile(`^[0-9]{1,9}$`)

// fuzzLastValue returns the last value of key in a raw query as Django reads
// it, and whether the strict oracle can read the query at all.
func fuzzLastValue(raw, key string) (value string, present, readable bool) {
	for field := range strings.SplitSeq(raw, "&") {
		if field == "" {
			continue
		}
		k, v, _ := strings.Cut(field, "=")
		k, err1 := url.QueryUnescape(k)
		v, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			return "", false, false
		}
		if k == key {
			value, present = v, true
		}
	}
	return value, present, true
}

// fuzzConsecutive reports whether ids run from first by step.
func fuzzConsecutive(ids []int, first, step int) bool {
	for i, id := range ids {
		if id != first+i*step {
			return false
		}
	}
	return true
}

// fuzzWalk follows the links chosen by next from p until there is none,
// returning every id seen, in order, and the last page; more than
// fuzzCount+1 hops fail.
func fuzzWalk(t *testing.T, h http.Handler, p fuzzPage, next func(fuzzPage) string) ([]int, fuzzPage) {
	t.Helper()
	var ids []int
	for hops := 0; next(p) != ""; hops++ {
		if hops > fuzzCount {
			t.Fatalf("links never end, at %q", next(p))
		}
		link := next(p)
		p = fuzzGet(t, h, link)
		if p.status != http.StatusOK {
			t.Fatalf("link %q: %d %q", link, p.status, p.detail)
		}
		ids = append(ids, p.ids...)
	}
	return ids, p
}

// fuzzCheckLinks follows the links of a page that has books: the next
// links to the last book, each book after the page's first seen once, in
// order, and the previous links back to a page that starts at the first
// book.
func fuzzCheckLinks(t *testing.T, h http.Handler, raw string, p fuzzPage) {
	t.Helper()
	if len(p.ids) == 0 {
		return
	}
	ids, _ := fuzzWalk(t, h, p, func(q fuzzPage) string { return q.next })
	forward := append(append([]int{}, p.ids...), ids...)
	if !fuzzConsecutive(forward, p.ids[0], 1) || forward[len(forward)-1] != fuzzCount {
		t.Fatalf("?%s: next links gave %v", raw, forward)
	}
	_, first := fuzzWalk(t, h, p, func(q fuzzPage) string { return q.previous })
	if first.ids[0] != 1 {
		t.Fatalf("?%s: previous links from %v end at %v", raw, p.ids, first.ids)
	}
}

// FuzzPageParams sends any query string to the page-number and
// limit/offset lists. Page numbers answer 200 with a run of consecutive
// books, or 404 "Invalid page."; limit/offset always answers 200 (bad
// values fall back to the defaults, as in DRF). Where the parameters are
// plain numbers, the page is exactly the one DRF gives. From any page the
// next links reach the last book exactly once each, and the previous links
// reach the first.
func FuzzPageParams(f *testing.F) {
	h := fuzzServer()
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 256 || strings.ContainsFunc(raw, func(r rune) bool { return r <= ' ' || r == '#' || r == 0x7f }) {
			return // not a query a server reads from a request line
		}
		fuzzCheckPageNumber(t, h, raw)
		fuzzCheckLimitOffset(t, h, raw)
	})
}

func fuzzCheckPageNumber(t *testing.T, h http.Handler, raw string) {
	p := fuzzGet(t, h, "/page-number/?"+raw)
	if p.status == http.StatusNotFound {
		if p.detail != "Invalid page." {
			t.Fatalf("?%s: 404 %q", raw, p.detail)
		}
	} else if p.status != http.StatusOK || p.count == nil || *p.count != fuzzCount || len(p.ids) == 0 || len(p.ids) > 20 {
		t.Fatalf("?%s: %d %+v", raw, p.status, p)
	}

	if pageRaw, havePage, ok := fuzzLastValue(raw, "page"); ok {
		size := 5
		sizeRaw, haveSize, _ := fuzzLastValue(raw, "page_size")
		strictSize := !haveSize || fuzzPlain.MatchString(sizeRaw)
		if n, _ := strconv.Atoi(sizeRaw); haveSize && fuzzPlain.MatchString(sizeRaw) && n > 0 {
			size = min(n, 20)
		}
		pages := (fuzzCount-1)/size + 1
		number, strictPage := 1, !havePage
		if havePage && pageRaw == "last" {
			number, strictPage = pages, true
		} else if havePage && fuzzPlain.MatchString(pageRaw) {
			number, _ = strconv.Atoi(pageRaw)
			strictPage = true
		}
		if strictSize && strictPage {
			if number < 1 || number > pages {
				if p.status != http.StatusNotFound {
					t.Fatalf("?%s: page %d of %d answered %d", raw, number, pages, p.status)
				}
				return
			}
			first := (number-1)*size + 1
			want := min(size, fuzzCount-first+1)
			if p.status != http.StatusOK || len(p.ids) != want || !fuzzConsecutive(p.ids, first, 1) {
				t.Fatalf("?%s: page %d of size %d answered %d %v", raw, number, size, p.status, p.ids)
			}
		}
	}
	if p.status != http.StatusOK {
		return
	}
	if !fuzzConsecutive(p.ids, p.ids[0], 1) {
		t.Fatalf("?%s: ids %v", raw, p.ids)
	}
	fuzzCheckLinks(t, h, raw, p)
}

func fuzzCheckLimitOffset(t *testing.T, h http.Handler, raw string) {
	p := fuzzGet(t, h, "/limit-offset/?"+raw)
	if p.status != http.StatusOK || p.count == nil || *p.count != fuzzCount || len(p.ids) > 20 {
		t.Fatalf("?%s: %d %+v", raw, p.status, p)
	}
	limitRaw, haveLimit, ok1 := fuzzLastValue(raw, "limit")
	offsetRaw, haveOffset, ok2 := fuzzLastValue(raw, "offset")
	if ok1 && ok2 && (!haveLimit || fuzzPlain.MatchString(limitRaw)) && (!haveOffset || fuzzPlain.MatchString(offsetRaw)) {
		limit, offset := 5, 0
		if n, _ := strconv.Atoi(limitRaw); n > 0 {
			limit = min(n, 20)
		}
		offset, _ = strconv.Atoi(offsetRaw)
		want := max(0, min(limit, fuzzCount-offset))
		if len(p.ids) != want || !fuzzConsecutive(p.ids, offset+1, 1) {
			t.Fatalf("?%s: limit %d offset %d answered %v", raw, limit, offset, p.ids)
		}
	}
	if len(p.ids) > 0 && !fuzzConsecutive(p.ids, p.ids[0], 1) {
		t.Fatalf("?%s: ids %v", raw, p.ids)
	}
	fuzzCheckLinks(t, h, raw, p)
}

// fuzzCursorOf returns the raw cursor a link carries.
func fuzzCursorOf(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	return u.Query().Get("cursor")
}

// FuzzCursor sends any cursor to the cursor lists. The answer is 200 or
// 404 "Invalid cursor", never an error of the server, whatever the cursor
// decodes to. A page is in the list's order (by -created, a run of
// consecutive books), and its links carry cursors of DRF's form (base64 of
// o, r and p) that lead on: by -created the next page starts right after
// the page's last book, and, unless the next cursor needs an offset, its
// previous link leads back to the same books.
func FuzzCursor(f *testing.F) {
	h := fuzzServer()
	f.Fuzz(func(t *testing.T, raw string) {
		q := "?cursor=" + url.QueryEscape(raw)
		for _, path := range []string{"/cursor/", "/cursor-rating/"} {
			p := fuzzGet(t, h, path+q)
			switch {
			case p.status == http.StatusNotFound:
				if p.detail != "Invalid cursor" {
					t.Fatalf("%s%s: 404 %q", path, q, p.detail)
				}
				continue
			case p.status != http.StatusOK || len(p.ids) > 5:
				t.Fatalf("%s%s: %d %+v", path, q, p.status, p)
			}
			for _, link := range []string{p.next, p.previous} {
				if link == "" {
					continue
				}
				c, err := base64.StdEncoding.DecodeString(fuzzCursorOf(t, link))
				if err != nil || !regexp.MustCompile(`^(o=[1-9][0-9]*)?(&?r=1)?(&?p=[^&]*)?$`).Match(c) {
					t.Fatalf("%s%s: link %q carries cursor %q", path, q, link, c)
				}
			}
			if path == "/cursor/" {
				fuzzCheckCreatedCursor(t, h, q, p)
			}
			for i := 1; path == "/cursor-rating/" && i < len(p.ids); i++ {
				if fuzzRating(p.ids[i]) < fuzzRating(p.ids[i-1]) {
					t.Fatalf("%s%s: ids %v out of rating order", path, q, p.ids)
				}
			}
		}
	})
}

func fuzzCheckCreatedCursor(t *testing.T, h http.Handler, q string, p fuzzPage) {
	if len(p.ids) == 0 {
		return
	}
	if !fuzzConsecutive(p.ids, p.ids[0], -1) {
		t.Fatalf("/cursor/%s: ids %v", q, p.ids)
	}
	if p.next == "" {
		if p.ids[len(p.ids)-1] != 1 {
			t.Fatalf("/cursor/%s: %v without a next link", q, p.ids)
		}
		return
	}
	next := fuzzGet(t, h, p.next)
	last := p.ids[len(p.ids)-1]
	if last == 1 && next.status == http.StatusOK && len(next.ids) == 0 {
		return // a tampered position can leave a next link after the first book, to an empty page
	}
	if next.status != http.StatusOK || len(next.ids) == 0 || next.ids[0] != last-1 {
		t.Fatalf("/cursor/%s: %v, then %d %v", q, p.ids, next.status, next.ids)
	}
	// A next cursor with an offset comes from a page whose boundary DRF
	// cannot place (a tampered cursor); its previous page may differ.
	if c, _ := base64.StdEncoding.DecodeString(fuzzCursorOf(t, p.next)); strings.HasPrefix(string(c), "o=") {
		return
	}
	back := fuzzGet(t, h, next.previous)
	if back.status != http.StatusOK || !fuzzConsecutive(back.ids, p.ids[0], -1) || len(back.ids) != len(p.ids) {
		t.Fatalf("/cursor/%s: %v, then %v, then back %d %v", q, p.ids, next.ids, back.status, back.ids)
	}
}
