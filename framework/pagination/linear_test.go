package pagination_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/pagination"
)

// distinctParams is a query string of n distinct parameters, k00000=v...
func distinctParams(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("k%05d=v", i)
	}
	return strings.Join(parts, "&")
}

// manyParamViews are the styles whose links carry the request's query,
// with the field limit lifted so that a huge query reaches them, and the
// browsable renderer beside JSON.
func manyParamViews(t testing.TB) map[string]http.Handler {
	src := booksSource(t, openBooks(t, 30))
	settings := framework.Settings{MaxNumberFields: -1,
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})}
	view := func(p framework.Paginator) http.Handler {
		return apitest.View(framework.View{Pagination: p, Get: list(src, nil)}, settings)
	}
	return map[string]http.Handler{
		"page-number":  view(&pagination.PageNumberPagination{PageSize: 5}),
		"limit-offset": view(&pagination.LimitOffsetPagination{DefaultLimit: 5}),
		"cursor":       view(&pagination.CursorPagination{PageSize: 5, Ordering: []string{"id"}}),
	}
}

// TestLinksWithManyParameters: a page whose query has 40,000 distinct
// parameters (the attack of issue 14, which cost seconds of CPU when link
// building rescanned the query once per key) is served, as JSON and as the
// browsable page, within a bound generous for a loaded machine: 5 s, times
// the race detector's slowdown (the slowest page takes 0.3 s on a loaded
// 2-core machine, 5 s there under the race detector; the quadratic code took
// 26 s without it); its links keep every parameter, in key order.
// The growth itself is measured by BenchmarkLinksWithManyParameters.
func TestLinksWithManyParameters(t *testing.T) {
	const n, bound = 40_000, raceSlowdown * 5 * time.Second
	query := distinctParams(n)
	for name, v := range manyParamViews(t) {
		for _, accept := range []string{"application/json", "text/html"} {
			target := "/books/?" + query
			if name != "cursor" {
				target += "&page=2&offset=5"
			}
			req := httptest.NewRequest(http.MethodGet, target, nil)
			req.Header.Set("Accept", accept)
			w := httptest.NewRecorder()
			start := time.Now()
			done := make(chan struct{})
			go func() {
				defer close(done)
				v.ServeHTTP(w, req)
			}()
			select {
			case <-done:
			case <-time.After(bound):
				// The quadratic code would go on for minutes: fail now.
				t.Fatalf("%s %s: still serving after %v (%d parameters)", name, accept, bound, n)
			}
			t.Logf("%s %s: %v", name, accept, time.Since(start))
			if w.Code != http.StatusOK {
				t.Fatalf("%s %s: %d %.300s", name, accept, w.Code, w.Body)
			}
			body := w.Body.String()
			sep := "&"
			if accept == "text/html" {
				sep = "&amp;"
			}
			if want := strings.Join([]string{"k00000=v", "k00001=v", "k00002=v"}, sep); !strings.Contains(body, want) {
				t.Errorf("%s %s: links lack %q", name, accept, want)
			}
			if want := fmt.Sprintf("k%05d=v", n-1); !strings.Contains(body, want) {
				t.Errorf("%s %s: links lack %q", name, accept, want)
			}
		}
	}
}

// BenchmarkLinksWithManyParameters serves the JSON and the browsable page
// of page 2 of a page-number list whose query has n distinct parameters:
// the time per request grows linearly with n.
//
//	go test -run '^$' -bench LinksWithManyParameters ./framework/pagination/
func BenchmarkLinksWithManyParameters(b *testing.B) {
	v := manyParamViews(b)["page-number"]
	for _, n := range []int{1_000, 10_000, 40_000, 100_000} {
		target := "/books/?" + distinctParams(n) + "&page=2"
		for _, accept := range []string{"application/json", "text/html"} {
			b.Run(fmt.Sprintf("%s/params=%d", strings.TrimPrefix(accept, "application/"), n), func(b *testing.B) {
				req := httptest.NewRequest(http.MethodGet, target, nil)
				req.Header.Set("Accept", accept)
				for b.Loop() {
					w := httptest.NewRecorder()
					v.ServeHTTP(w, req)
					if w.Code != http.StatusOK {
						b.Fatalf("%d %.300s", w.Code, w.Body)
					}
				}
			})
		}
	}
}
