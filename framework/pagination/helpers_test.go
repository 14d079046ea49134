package pagination_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// book is the reference's book row (owner kept as its username).
type book struct {
	ID      int64     `db:"id" json:"id"`
	Title   string    `db:"title" json:"title"`
	Author  string    `db:"author" json:"author"`
	Rating  int64     `db:"rating" json:"rating"`
	Created time.Time `db:"created" json:"created"`
	Owner   string    `db:"owner" json:"owner"`
}

// booksSchema is the books table on each dialect.
var booksSchema = map[store.Dialect]string{
	store.SQLite: `CREATE TABLE books (
	id integer NOT NULL PRIMARY KEY AUTOINCREMENT,
	title varchar(200) NOT NULL,
	author varchar(200) NOT NULL,
	rating integer NOT NULL,
	created datetime NOT NULL,
	owner varchar(150) NOT NULL
);
CREATE INDEX books_created ON books (created);`,
	store.PostgreSQL: `CREATE TABLE books (
	id serial NOT NULL PRIMARY KEY,
	title varchar(200) NOT NULL,
	author varchar(200) NOT NULL,
	rating integer NOT NULL,
	created timestamp with time zone NOT NULL,
	owner varchar(150) NOT NULL
);
CREATE INDEX books_created ON books (created);`,
}

// epoch is the creation time of book 0 in the reference's seed.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// seedBook is book i of the reference's seed command.
func seedBook(i int) book {
	owner := "admin"
	if i%2 == 0 {
		owner = "alice"
	}
	return book{ID: int64(i), Title: fmt.Sprintf("Book %03d", i), Author: fmt.Sprintf("Author %d", i%7),
		Rating: int64(i*7%5 + 1), Created: epoch.Add(time.Duration(i) * time.Hour), Owner: owner}
}

// openBooks returns a fresh SQLite database in a temporary file with the
// reference's n books.
func openBooks(t testing.TB, n int) *sqlx.DB {
	t.Helper()
	// A throwaway file: commits need not survive a power loss, and the
	// property tests commit thousands of times.
	return openBooksAt(t, "file:"+filepath.Join(t.TempDir(), "db.sqlite3")+"?_synchronous=NORMAL", n)
}

// openBooksAt is openBooks on the empty database dsn, of either dialect.
func openBooksAt(t testing.TB, dsn string, n int) *sqlx.DB {
	t.Helper()
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.Exec(booksSchema[store.DialectOf(db)]); err != nil {
		t.Fatal(err)
	}
	tx := db.MustBegin()
	for i := 1; i <= n; i++ {
		insertBook(t, tx, seedBook(i))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return db
}

func insertBook(t testing.TB, x interface {
	sqlx.Execer
	Rebind(string) string
}, b book) {
	t.Helper()
	_, err := x.Exec(x.Rebind(`INSERT INTO books (id, title, author, rating, created, owner) VALUES (?, ?, ?, ?, ?, ?)`),
		b.ID, b.Title, b.Author, b.Rating, b.Created.UTC().Format(time.DateTime), b.Owner)
	if err != nil {
		t.Fatal(err)
	}
}

// booksSource is the books table ordered by id, as the reference's model.
func booksSource(t testing.TB, db *sqlx.DB) queryset.Source[book] {
	t.Helper()
	src, err := queryset.NewSQL[book](db, queryset.SQLConfig{Table: "books", Ordering: []query.Order{{Field: "id"}}})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// list is a plain view's GET handler that paginates src with the view's
// style (after filter, when given) and answers the whole list when
// pagination is off.
func list[T any](src queryset.Source[T], filter func(query.Query, *request.Request) query.Query) framework.HandlerFunc {
	return func(v *framework.View, r *request.Request) (*framework.Response, error) {
		var rows queryset.Rows[T]
		q := queryset.Into(src, &rows)
		if filter != nil {
			q = filter(q, r)
		}
		if p := v.Paginator(); p != nil {
			page, err := p.Paginate(r, q)
			if err != nil {
				return nil, err
			}
			if page != nil {
				return page.Response(rows.Items), nil
			}
		}
		if _, err := q.Fetch(r.Context(), 0, -1); err != nil {
			return nil, err
		}
		return framework.OK(rows.Items), nil
	}
}

// orderingFilter is the reference's ordering filter on /pages/cursor-orderable/:
// the comma-separated terms of ?ordering= among title, created and id, else
// "-created".
func orderingFilter(src query.Query, r *request.Request) query.Query {
	var order []query.Order
	if raw := r.URL.Query().Get("ordering"); raw != "" {
		for term := range strings.SplitSeq(raw, ",") {
			o := query.ParseOrder(strings.TrimSpace(term))
			if slices.Contains([]string{"title", "created", "id"}, o.Field) {
				order = append(order, o)
			}
		}
	}
	if len(order) == 0 {
		order = []query.Order{{Field: "created", Desc: true}}
	}
	return pagination.FilterOrdered(src.OrderBy(order...))
}

// styleView is a view listing src with style p.
func styleView[T any](src queryset.Source[T], p framework.Paginator, s ...framework.Settings) http.Handler {
	return apitest.View(framework.View{Pagination: p, Get: list(src, nil)}, s...)
}

// referenceMux serves the reference's pagination routes over src, as DRF
// 3.18 answers.
func referenceMux(src queryset.Source[book]) *http.ServeMux {
	return referenceMuxAt(src, framework.DRF318)
}

// referenceMuxAt serves the reference's pagination routes over src, as
// the release level names answers.
func referenceMuxAt(src queryset.Source[book], level framework.Compatibility) *http.ServeMux {
	at := framework.Settings{Compatibility: level}
	defaultSettings := defaultSettings
	defaultSettings.Compatibility = level
	mux := http.NewServeMux()
	mux.Handle("/pages/page-number/", styleView(src, &pagination.PageNumberPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20}, at))
	mux.Handle("/pages/limit-offset/", styleView(src, &pagination.LimitOffsetPagination{DefaultLimit: 5, MaxLimit: 20}, at))
	mux.Handle("/pages/cursor/", styleView(src, &pagination.CursorPagination{PageSize: 5, Ordering: []string{"-created"}, PageSizeQueryParam: "page_size", MaxPageSize: 20}, at))
	mux.Handle("/pages/cursor-rating/", styleView(src, &pagination.CursorPagination{PageSize: 5, Ordering: []string{"rating"}}, at))
	mux.Handle("/pages/cursor-orderable/", apitest.View(framework.View{Pagination: &pagination.CursorPagination{PageSize: 5}, Get: list(src, orderingFilter)}, at))
	mux.Handle("/pages/link-header/", styleView(src, &pagination.LinkHeaderPagination{PageNumberPagination: pagination.PageNumberPagination{PageSize: 5}}, at))
	mux.Handle("/pages/nested-links/", styleView(src, &pagination.NestedLinksPagination{PageNumberPagination: pagination.PageNumberPagination{PageSize: 5}}, at))
	mux.Handle("/pages/off/", apitest.View(framework.View{Pagination: framework.NoPagination, Get: list(src, nil)}, defaultSettings))
	mux.Handle("/books/", apitest.View(framework.View{Get: list(src, nil)}, defaultSettings))
	return mux
}

// defaultSettings are the reference's: page numbers of 10 by default.
var defaultSettings = framework.Settings{Pagination: &pagination.PageNumberPagination{}, PageSize: 10}

// answer is what a test reads of a response.
type answer struct {
	Status int
	Link   string
	Body   []byte
}

// get requests path from srv's handler; header holds names and values in
// turn.
func get(t testing.TB, srv *httptest.Server, path string, header ...string) answer {
	t.Helper()
	var fields []string
	for i := 0; i+1 < len(header); i += 2 {
		fields = append(fields, header[i]+": "+header[i+1])
	}
	c := apitest.New(t, srv.Config.Handler)
	c.Secure = srv.TLS != nil
	r := c.Get(path, fields...)
	return answer{Status: r.Status, Link: r.Header.Get("Link"), Body: []byte(r.Body)}
}

// envelope is a decoded paginated answer: the links, count and result ids,
// or the error detail.
type envelope struct {
	Count    *int    `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []struct {
		ID int `json:"id"`
	} `json:"results"`
	Detail string `json:"detail"`
}

func decode(t testing.TB, a answer) envelope {
	t.Helper()
	var e envelope
	if err := json.Unmarshal(a.Body, &e); err != nil {
		t.Fatalf("body %q: %v", a.Body, err)
	}
	return e
}

func (e envelope) ids() []int {
	ids := make([]int, len(e.Results))
	for i, r := range e.Results {
		ids[i] = r.ID
	}
	return ids
}

// str returns *s, or "null".
func str(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
