package framework_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/accesslog"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// benchBook is the sample's book: the columns of the join of books and
// auth_user, and its JSON.
type benchBook struct {
	ID      int64     `db:"id" json:"id" drf:"read_only"`
	Title   string    `db:"title" json:"title"`
	Author  string    `db:"author" json:"author"`
	Rating  int       `db:"rating" json:"rating"`
	Created time.Time `db:"created" json:"created" drf:"read_only"`
	OwnerID int64     `db:"owner_id" json:"-"`
	Owner   string    `db:"owner" json:"owner" drf:"read_only"`
}

var benchEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func benchBooks(n int) []benchBook {
	books := make([]benchBook, n)
	for i := range books {
		id := i + 1
		owner := "admin"
		if id%2 == 0 {
			owner = "alice"
		}
		books[i] = benchBook{ID: int64(id), Title: fmt.Sprintf("Book %03d", id), Author: fmt.Sprintf("Author %d", id%7),
			Rating: id*7%5 + 1, Created: benchEpoch.Add(time.Duration(id) * time.Hour), Owner: owner}
	}
	return books
}

// fixedSource is the trivial data source: a count and one page of items
// computed beforehand, so that a benchmark over it measures the framework.
type fixedSource struct {
	count int
	page  []*benchBook
}

type fixed = queryset.Source[benchBook]

func (s fixedSource) Fields() []string                                      { return nil }
func (s fixedSource) Ordering() []query.Order                               { return nil }
func (s fixedSource) OrderBy(...query.Order) fixed                          { return s }
func (s fixedSource) Filter(string, string) fixed                           { return s }
func (s fixedSource) Seek(string, query.Op, string) fixed                   { return s }
func (s fixedSource) SeekAfter([]query.Order, []string) fixed               { return s }
func (s fixedSource) Search([]string, []string) fixed                       { return s }
func (s fixedSource) Where(string, query.Lookup, ...string) fixed           { return s }
func (s fixedSource) Count(context.Context) (int, error)                    { return s.count, nil }
func (s fixedSource) Slice(context.Context, int, int) ([]*benchBook, error) { return s.page, nil }
func (s fixedSource) Position(*benchBook, string) (string, error)           { return "", nil }
func newFixedSource(count, size int) fixedSource {
	books := benchBooks(size)
	page := make([]*benchBook, size)
	for i := range books {
		page[i] = &books[i]
	}
	return fixedSource{count: count, page: page}
}

// memoryTokens is an in-memory authentication.TokenStore.
type memoryTokens map[string]*auth.User

func (m memoryTokens) LookupToken(_ context.Context, key string) (request.User, any, error) {
	u, ok := m[key]
	if !ok {
		return nil, nil, nil
	}
	return u, key, nil
}

const benchKey = "0123456789abcdef0123456789abcdef01234567"

// listView is the sample's /pages/page-number/ behind token authentication
// and IsAuthenticated: page number pagination of 5, the JSON and browsable
// renderers, over src.
func listView(src queryset.Source[benchBook], tokens authentication.TokenStore) http.Handler {
	settings := framework.Settings{
		Authentication: framework.Authenticators(authentication.Token{Tokens: tokens}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		PageSize:       10,
		Renderers:      framework.Renderers(framework.JSONRenderer{}, benchHTML{}),
	}
	g := generics.GenericAPIView[benchBook]{
		View:       framework.View{Pagination: &pagination.PageNumberPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20}},
		Source:     src,
		Serializer: serializers.MustNew[benchBook](),
	}
	return apitest.View(generics.ListAPIView(g), settings)
}

// benchHTML stands for the browsable renderer in negotiation; requests
// that accept anything get JSON.
type benchHTML struct{}

func (benchHTML) MediaType() string { return "text/html" }
func (benchHTML) Format() string    { return "api" }
func (benchHTML) Render(any, *framework.RenderContext) ([]byte, error) {
	return []byte("<html></html>"), nil
}

// discard is a ResponseWriter that keeps the status and the body's size.
type discard struct {
	h      http.Header
	status int
	n      int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(status int)      { d.status = status }
func (d *discard) Write(b []byte) (int, error) { d.n += len(b); return len(b), nil }

// serve runs h on req b.N times and checks the answer is 200.
func serve(b *testing.B, h http.Handler, req *http.Request) {
	b.Helper()
	w := &discard{h: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status != http.StatusOK || w.n == 0 {
		b.Fatalf("status %d, %d bytes", w.status, w.n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		clear(w.h)
		h.ServeHTTP(w, req)
	}
}

func pageRequest(key string) *http.Request {
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8000/pages/page-number/?page=3", nil)
	if key != "" {
		req.Header.Set("Authorization", "Token "+key)
	}
	return req
}

// BenchmarkFrameworkPath is one page-number request through the framework
// with a data source that costs nothing: token authentication against a
// map, IsAuthenticated, negotiation, page 3 of 5 items, serialisation
// and JSON rendering.
func BenchmarkFrameworkPath(b *testing.B) {
	tokens := memoryTokens{benchKey: {ID: 2, Username: "alice", Active: true}}
	serve(b, listView(newFixedSource(1000, 5), tokens), pageRequest(benchKey))
}

// BenchmarkSliceSource is the same request over an in-memory slice of 1,000
// books (queryset.SliceSource).
func BenchmarkSliceSource(b *testing.B) {
	tokens := memoryTokens{benchKey: {ID: 2, Username: "alice", Active: true}}
	src := queryset.MustSlice(benchBooks(1000), query.Order{Field: "id"})
	serve(b, listView(src, tokens), pageRequest(benchKey))
}

// booksQuery is the sample's books with their owner's name.
const booksQuery = `SELECT b."id", b."title", b."author", b."rating", b."created", b."owner_id", u."username" AS "owner" ` +
	`FROM "books" b JOIN "auth_user" u ON u."id" = b."owner_id"`

// BenchmarkSQLite is the same request over SQLite: the token and its user
// read by contrib/authtoken, the count and the page by queryset.SQLSource
// over the join of books and auth_user, as the sample reads them, with
// each count strategy: "query" counts through the join (the source's
// default), "table" counts the books table (queryset.CountTable, what the
// sample and Django do), "triggers" reads the row count kept by triggers
// (queryset.RowCounter), "cached" reuses a table count for a second
// (queryset.CachedCount).
func BenchmarkSQLite(b *testing.B) {
	rows := queryset.RowCounter{Table: "books"}
	for _, n := range []int{1000, 100000, 1000000} {
		db, key := benchDB(b, n)
		if _, err := migrations.Migrate(context.Background(), db, rows.Migration("bench", "0002_rowcount")); err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name    string
			counter queryset.Counter
		}{
			{"query", nil},
			{"table", queryset.CountTable("books")},
			{"triggers", rows},
			{"cached", queryset.CachedCount(queryset.CountTable("books"), time.Second)},
		} {
			b.Run(fmt.Sprintf("books=%d/count=%s", n, c.name), func(b *testing.B) {
				src := queryset.MustSQL[benchBook](db, queryset.SQLConfig{Table: "books", Query: booksQuery,
					Ordering: []query.Order{{Field: "id"}}, Counter: c.counter})
				serve(b, listView(src, &authtoken.Tokens{DB: db}), pageRequest(key))
			})
		}
	}
}

// BenchmarkTokenSQLite is the token lookup alone (authtoken_token joined
// with auth_user through the primary key), through a view with a trivial
// source.
func BenchmarkTokenSQLite(b *testing.B) {
	db, key := benchDB(b, 0)
	serve(b, listView(newFixedSource(1000, 5), &authtoken.Tokens{DB: db}), pageRequest(key))
}

// booksTable is the sample's books table, with Django's indexes.
var booksTable = migrations.Migration{App: "bench", Name: "0001_books", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{
	`CREATE TABLE "books" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "title" varchar(200) NOT NULL, ` +
		`"author" varchar(200) NOT NULL, "rating" integer NOT NULL, "created" datetime NOT NULL, ` +
		`"owner_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED)`,
	`CREATE INDEX "books_created_12281279" ON "books" ("created")`,
	`CREATE INDEX "books_owner_id_552d09c7" ON "books" ("owner_id")`,
}}}}

// benchDB is a file database with the users alice and admin, alice's
// token, and n books; it returns the token's key.
func benchDB(b *testing.B, n int) (*sqlx.DB, string) {
	b.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.sqlite3"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	migs := append(append(append([]migrations.Migration{}, auth.Migrations...), authtoken.Migrations...), booksTable)
	if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
		b.Fatal(err)
	}
	err = store.InTx(ctx, db, func(tx *sqlx.Tx) error {
		for _, name := range []string{"admin", "alice"} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO "auth_user" ("password", "is_superuser", "username", "first_name", "last_name", "email", "is_staff", "is_active", "date_joined") VALUES ('!', 0, ?, '', '', '', 0, 1, '2024-01-01 00:00:00')`, name); err != nil {
				return err
			}
		}
		// Book i as benchBooks(n) has it, owned by alice (2) when even.
		_, err := tx.ExecContext(ctx, `INSERT INTO "books" ("id", "title", "author", "rating", "created", "owner_id") `+
			`WITH RECURSIVE n(i) AS (SELECT 1 WHERE ? > 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?) `+
			`SELECT i, printf('Book %03d', i), 'Author ' || (i % 7), i * 7 % 5 + 1, `+
			`datetime('2024-01-01 00:00:00', '+' || i || ' hours'), 2 - i % 2 FROM n`, n, n)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	tok, _, err := (&authtoken.Tokens{DB: db}).GetOrCreate(ctx, 2)
	if err != nil {
		b.Fatal(err)
	}
	return db, tok.Key
}

// sampleTargets are the load benchmark's requests (bench/run), and whether
// each carries alice's token.
var sampleTargets = []struct {
	name, target string
	token        bool
}{
	{"page-number+token", "/pages/page-number/?page=3", true},
	{"cursor", "/pages/cursor/?cursor=cD0yMDI0LTAxLTAxKzEwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D", false},
	{"limit-offset", "/pages/limit-offset/?offset=900", false},
	{"detail", "/books/1/", false},
}

// BenchmarkSample serves the load benchmark's requests (bench/run) through
// the whole sample service (router, security headers, its three schemes)
// over SQLite with 1,000 books.
func BenchmarkSample(b *testing.B) {
	h, key := benchSample(b)
	for _, c := range sampleTargets {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8000"+c.target, nil)
			if c.token {
				req.Header.Set("Authorization", "Token "+key)
			}
			serve(b, h, req)
		})
	}
}

// BenchmarkServed is BenchmarkSample over TCP: through net/http's server
// and AccessLog, as runserver serves the sample (without its framing
// listener). Its allocations are the client's and the server's together.
func BenchmarkServed(b *testing.B) {
	h, key := benchSample(b)
	srv := httptest.NewServer(accesslog.New(slog.New(slog.DiscardHandler), h))
	b.Cleanup(srv.Close)
	for _, c := range sampleTargets {
		b.Run(c.name, func(b *testing.B) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+c.target, nil)
			if err != nil {
				b.Fatal(err)
			}
			if c.token {
				req.Header.Set("Authorization", "Token "+key)
			}
			b.ReportAllocs()
			for b.Loop() {
				resp, err := srv.Client().Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}

// benchSample is the sample service over SQLite with 1,000 books, and
// alice's token.
func benchSample(b *testing.B) (http.Handler, string) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(b.TempDir(), "sample.sqlite3"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		b.Fatal(err)
	}
	if err := sample.Seed(ctx, db, 1000); err != nil {
		b.Fatal(err)
	}
	alice, err := (&auth.Users{DB: db}).GetByUsername(ctx, "alice")
	if err != nil {
		b.Fatal(err)
	}
	tok, _, err := (&authtoken.Tokens{DB: db}).GetOrCreate(ctx, alice.ID)
	if err != nil {
		b.Fatal(err)
	}
	h, err := sample.New(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	return h, tok.Key
}

// appended writes itself, as pagination envelopes do.
type appended struct{ Text string }

func (a appended) AppendJSON(b []byte) ([]byte, error) {
	return append(append(append(b, `{"text":"`...), a.Text...), `"}`...), nil
}

// TestRendererShortcuts: the renderer's shortcuts (pre-encoded JSON,
// data that appends itself, the format parameter looked for without
// parsing the query) answer what encoding/json and a parsed query would.
func TestRendererShortcuts(t *testing.T) {
	view := func(data any) http.Handler {
		return apitest.View(framework.View{
			Renderers: framework.Renderers(framework.JSONRenderer{}, benchHTML{}),
			Get: func(*framework.View, *request.Request) (*framework.Response, error) {
				return framework.OK(data), nil
			},
		})
	}
	for _, c := range []struct {
		data          any
		query, accept string
		want          string
	}{
		{json.RawMessage(`{"a":[1,2]}`), "", "", `{"a":[1,2]}`},
		{json.RawMessage(`{"a":[1,2]}`), "", "application/json; indent=2", "{\n  \"a\": [\n    1,\n    2\n  ]\n}"},
		{json.RawMessage(nil), "", "", `null`},
		{appended{"<&>"}, "", "", `{"text":"<&>"}`},
		{appended{"x"}, "", "application/json; indent=4", "{\n    \"text\": \"x\"\n}"},
		{appended{"x"}, "?format=api", "", `<html></html>`},
		{appended{"x"}, "?%66ormat=api", "", `<html></html>`},
		{appended{"x"}, "?page=2&formats=api", "", `{"text":"x"}`},
	} {
		srv := httptest.NewServer(view(c.data))
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/"+c.query, nil)
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if resp.StatusCode != http.StatusOK || string(body) != c.want {
			t.Errorf("%T%s Accept %q: %d %q, want %q", c.data, c.query, c.accept, resp.StatusCode, body, c.want)
		}
	}
}
