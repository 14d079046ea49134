package pagination_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
)

// benchRows is the size of the benchmarks' table.
const benchRows = 1_000_000

// benchDepth is how many items precede the deep pages.
const benchDepth = 999_000

// BenchmarkDeepPages serves a page of 20 at the start and at depth
// 999,000 of 1,000,000 books ordered by -created (indexed), with cursors,
// with keyset cursors (-created, then -id) and, as the foil, with
// limit/offset. The table is built once, in a
// temporary file.
//
//	go test -run '^$' -bench DeepPages -benchmem ./framework/pagination/
func BenchmarkDeepPages(b *testing.B) {
	start := time.Now()
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.sqlite3"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	// Book x was created x seconds after the epoch.
	_, err = db.Exec(booksSchema[store.SQLite] + `
		DROP INDEX books_created;
		INSERT INTO books (id, title, author, rating, created, owner)
		WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ` + fmt.Sprint(benchRows) + `)
		SELECT x, printf('Book %07d', x), 'Author ' || (x % 7), x * 7 % 5 + 1,
			datetime('2024-01-01 00:00:00', '+' || x || ' seconds'), 'alice' FROM n;
		CREATE INDEX books_created ON books (created);
		ANALYZE;`)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("built %d rows in %v", benchRows, time.Since(start).Round(time.Millisecond))
	src, err := queryset.NewSQL[book](db, queryset.SQLConfig{Table: "books", Ordering: []query.Order{{Field: "created", Desc: true}}})
	if err != nil {
		b.Fatal(err)
	}
	// The position of the deep page: the created of the last item before it.
	position := epoch.Add(time.Duration(benchRows-benchDepth+1)*time.Second).Format("2006-01-02 15:04:05") + "+00:00"
	deepCursor := url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("p=" + url.QueryEscape(position))))
	cursor := styleView(src, &pagination.CursorPagination{PageSize: 20, Ordering: []string{"-created"}})
	limitOffset := styleView(src, &pagination.LimitOffsetPagination{DefaultLimit: 20})
	keysetStyle := &pagination.KeysetPagination{PageSize: 20, Ordering: []string{"-created"}, Secret: []byte("bench")}
	keyset := styleView(src, keysetStyle)
	first := benchRows
	deep := benchRows - benchDepth
	// The keyset position of the deep page: the last item before it.
	deepKeyset := pagination.KeysetCursor(keysetStyle, position, fmt.Sprint(deep+1))
	for _, c := range []struct {
		name    string
		view    http.Handler
		target  string
		firstID int
	}{
		{"cursor/first", cursor, "/books/", first},
		{"cursor/deep", cursor, "/books/?cursor=" + deepCursor, deep},
		{"keyset/first", keyset, "/books/", first},
		{"keyset/deep", keyset, "/books/?cursor=" + deepKeyset, deep},
		{"limit-offset/first", limitOffset, "/books/", first},
		{"limit-offset/deep", limitOffset, fmt.Sprintf("/books/?offset=%d", benchDepth), deep},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, c.target, nil)
			check := httptest.NewRecorder()
			c.view.ServeHTTP(check, req)
			if want := fmt.Sprintf(`"results":[{"id":%d,`, c.firstID); check.Code != http.StatusOK || !strings.Contains(check.Body.String(), want) {
				b.Fatalf("%s: %d %.300s, want %s", c.target, check.Code, check.Body, want)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.view.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}
