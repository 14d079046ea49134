// Command handwritten is the baseline of the load benchmark (bench/run): the
// sample's benchmarked endpoints written by hand with chi and sqlx, without
// the framework. It reads the sample's database and answers the same JSON
// for the same requests:
//
//	GET /pages/page-number/?page=N   count, 5 books of page N (page_size up to 20)
//	GET /pages/limit-offset/?offset=N&limit=L
//	GET /pages/cursor/?cursor=C      5 books by -created after DRF's cursor C
//	GET /books/{id}/
//
// An "Authorization: Token KEY" header is checked against authtoken_token
// joined with auth_user, reading the token and its user as DRF and the
// sample's token scheme do. Every query is prepared once; the pool is sized
// like the framework's store.
//
//	handwritten [-addr 127.0.0.1:8002] [-count table|triggers] DATABASE
//
// DATABASE is a SQLite file, or a postgres:// URL (pgx's database/sql
// driver, the queries' placeholders rebound to $1...).
//
// -count triggers reads the book count from the counter table that
// queryset.RowCounter keeps by triggers (bench/counted installs it), the
// "exact and cheap" strategy, instead of SELECT COUNT(*) on every request.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	_ "github.com/mattn/go-sqlite3"
)

const (
	pageSize, maxPageSize  = 5, 20
	defaultLimit, maxLimit = 5, 20
	offsetCutoff           = 1000
)

const bookColumns = `SELECT b."id", b."title", b."author", b."rating", b."created", u."username" ` +
	`FROM "books" b JOIN "auth_user" u ON u."id" = b."owner_id"`

// book is one item of the answers.
type book struct {
	ID      int64     `db:"id" json:"id"`
	Title   string    `db:"title" json:"title"`
	Author  string    `db:"author" json:"author"`
	Rating  int       `db:"rating" json:"rating"`
	Created time.Time `db:"created" json:"created"`
	Owner   string    `db:"username" json:"owner"`
}

// token is a token and its user, as the token check reads them (the same
// columns as DRF's Token.objects.select_related("user")).
type token struct {
	Key        string     `db:"key"`
	Created    time.Time  `db:"created"`
	UserID     int64      `db:"user_id"`
	ID         int64      `db:"id"`
	Password   string     `db:"password"`
	LastLogin  *time.Time `db:"last_login"`
	Superuser  bool       `db:"is_superuser"`
	Username   string     `db:"username"`
	FirstName  string     `db:"first_name"`
	LastName   string     `db:"last_name"`
	Email      string     `db:"email"`
	Staff      bool       `db:"is_staff"`
	Active     bool       `db:"is_active"`
	DateJoined time.Time  `db:"date_joined"`
}

// envelope is the answer of the page-number and limit/offset lists.
type envelope struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []book  `json:"results"`
}

// cursorEnvelope is the answer of the cursor list.
type cursorEnvelope struct {
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []book  `json:"results"`
}

type detail struct {
	Detail string `json:"detail"`
}

// server holds the prepared statements.
type server struct {
	pg                         bool
	token, count, page, detail *sqlx.Stmt
	cursorFirst, cursorLast    *sqlx.Stmt
	cursorLt, cursorGt         *sqlx.Stmt
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8002", "address to listen on")
	counting := flag.String("count", "table", `how to count the books: "table" (SELECT COUNT(*)) or "triggers" (the counter table)`)
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: handwritten [-addr HOST:PORT] [-count table|triggers] DATABASE")
		os.Exit(2)
	}
	db, err := open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	n := 2*runtime.NumCPU() + 2
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	s, err := prepare(db, *counting)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("hand-written chi+sqlx server on http://%s/ (database %s)", *addr, flag.Arg(0))
	log.Fatal(http.ListenAndServe(*addr, s.routes()))
}

// open opens a SQLite file or a postgres:// URL.
func open(database string) (*sqlx.DB, error) {
	if strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://") {
		return sqlx.Open("pgx", database)
	}
	return sqlx.Open("sqlite3", "file:"+database+"?_busy_timeout=5000&_journal_mode=WAL")
}

func prepare(db *sqlx.DB, counting string) (*server, error) {
	countQuery := `SELECT COUNT(*) FROM "books"`
	switch counting {
	case "table":
	case "triggers":
		countQuery = `SELECT "rows" FROM "books_rowcount"`
	default:
		return nil, fmt.Errorf("-count: %q is neither table nor triggers", counting)
	}
	s := &server{pg: db.DriverName() == "pgx"}
	for _, p := range []struct {
		stmt  **sqlx.Stmt
		query string
	}{
		{&s.token, `SELECT t."key", t."created", t."user_id", u."id", u."password", u."last_login", u."is_superuser", ` +
			`u."username", u."first_name", u."last_name", u."email", u."is_staff", u."is_active", u."date_joined" ` +
			`FROM "authtoken_token" t JOIN "auth_user" u ON u."id" = t."user_id" WHERE t."key" = ?`},
		{&s.count, countQuery},
		{&s.page, bookColumns + ` ORDER BY b."id" ASC LIMIT ? OFFSET ?`},
		{&s.detail, bookColumns + ` WHERE b."id" = ?`},
		{&s.cursorFirst, bookColumns + ` ORDER BY b."created" DESC LIMIT ? OFFSET ?`},
		{&s.cursorLast, bookColumns + ` ORDER BY b."created" ASC LIMIT ? OFFSET ?`},
		{&s.cursorLt, bookColumns + ` WHERE b."created" < ? ORDER BY b."created" DESC LIMIT ? OFFSET ?`},
		{&s.cursorGt, bookColumns + ` WHERE b."created" > ? ORDER BY b."created" ASC LIMIT ? OFFSET ?`},
	} {
		stmt, err := db.Preparex(db.Rebind(p.query))
		if err != nil {
			return nil, fmt.Errorf("prepare %q: %w", p.query, err)
		}
		*p.stmt = stmt
	}
	return s, nil
}

func (s *server) routes() http.Handler {
	r := chi.NewRouter()
	r.Get("/pages/page-number/", s.authenticated(s.pageNumber))
	r.Get("/pages/limit-offset/", s.authenticated(s.limitOffset))
	r.Get("/pages/cursor/", s.authenticated(s.cursor))
	r.Get("/books/{id}/", s.authenticated(s.book))
	return r
}

// authenticated checks a token header, when there is one, before h.
func (s *server) authenticated(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if f := strings.Fields(r.Header.Get("Authorization")); len(f) > 0 && strings.EqualFold(f[0], "Token") {
			if len(f) != 2 {
				writeJSON(w, http.StatusForbidden, detail{"Invalid token header."})
				return
			}
			var tok token
			err := s.token.GetContext(r.Context(), &tok, f[1])
			if errors.Is(err, sql.ErrNoRows) || err == nil && !tok.Active {
				writeJSON(w, http.StatusForbidden, detail{"Invalid token."})
				return
			}
			if err != nil {
				fail(w, err)
				return
			}
		}
		h(w, r)
	}
}

func (s *server) pageNumber(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	size := pageSize
	if n, err := strconv.Atoi(q.Get("page_size")); err == nil && n > 0 {
		size = min(n, maxPageSize)
	}
	var count int
	if err := s.count.QueryRowContext(r.Context()).Scan(&count); err != nil {
		fail(w, err)
		return
	}
	pages := max(1, (count+size-1)/size)
	number := 1
	if raw, ok := q["page"]; ok {
		n, err := strconv.Atoi(raw[len(raw)-1])
		if err != nil || n < 1 || n > pages {
			writeJSON(w, http.StatusNotFound, detail{"Invalid page."})
			return
		}
		number = n
	}
	books, err := s.books(r.Context(), s.page, size, (number-1)*size)
	if err != nil {
		fail(w, err)
		return
	}
	env := envelope{Count: count, Results: books}
	if number < pages {
		env.Next = link(r, "page", strconv.Itoa(number+1))
	}
	if number == 2 {
		env.Previous = link(r, "page", "")
	} else if number > 2 {
		env.Previous = link(r, "page", strconv.Itoa(number-1))
	}
	writeJSON(w, http.StatusOK, env)
}

func (s *server) limitOffset(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := defaultLimit
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n > 0 {
		limit = min(n, maxLimit)
	}
	offset := 0
	if n, err := strconv.Atoi(q.Get("offset")); err == nil && n > 0 {
		offset = n
	}
	var count int
	if err := s.count.QueryRowContext(r.Context()).Scan(&count); err != nil {
		fail(w, err)
		return
	}
	books, err := s.books(r.Context(), s.page, limit, offset)
	if err != nil {
		fail(w, err)
		return
	}
	env := envelope{Count: count, Results: books}
	withLimit := replace(r.URL.Query(), "limit", strconv.Itoa(limit))
	if offset+limit < count {
		env.Next = absolute(r, replace(withLimit, "offset", strconv.Itoa(offset+limit)))
	}
	if offset > 0 {
		if offset-limit <= 0 {
			env.Previous = absolute(r, replace(withLimit, "offset", ""))
		} else {
			env.Previous = absolute(r, replace(withLimit, "offset", strconv.Itoa(offset-limit)))
		}
	}
	writeJSON(w, http.StatusOK, env)
}

// position is a cursor's place: the created time of a book as Django
// prints it.
type position struct {
	text string
	ok   bool
}

func positionOf(b book) position {
	t := b.Created.UTC()
	if t.Nanosecond() != 0 {
		return position{t.Format("2006-01-02 15:04:05.000000-07:00"), true}
	}
	return position{t.Format("2006-01-02 15:04:05-07:00"), true}
}

func (s *server) cursor(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	size := pageSize
	if n, err := strconv.Atoi(q.Get("page_size")); err == nil && n > 0 {
		size = min(n, maxPageSize)
	}
	var offset int
	var reverse bool
	var current position
	if raw, ok := q["cursor"]; ok {
		var err error
		if offset, reverse, current, err = decodeCursor(raw[len(raw)-1]); err != nil {
			writeJSON(w, http.StatusNotFound, detail{"Invalid cursor"})
			return
		}
	}
	stmt, args := s.cursorFirst, []any{}
	if current.ok {
		at, err := time.Parse("2006-01-02 15:04:05.999999-07:00", current.text)
		if err != nil {
			writeJSON(w, http.StatusNotFound, detail{"Invalid cursor"})
			return
		}
		stmt, args = s.cursorLt, []any{dbTime(at)}
		if s.pg {
			args = []any{at}
		}
		if reverse {
			stmt = s.cursorGt
		}
	} else if reverse {
		stmt = s.cursorLast
	}
	results, err := s.books(r.Context(), stmt, size+1, offset, args...)
	if err != nil {
		fail(w, err)
		return
	}
	page := results[:min(len(results), size)]
	var following position
	if len(results) > size {
		following = positionOf(results[size])
	}
	var hasNext, hasPrevious bool
	var nextPos, prevPos position
	if reverse {
		for i, j := 0, len(page)-1; i < j; i, j = i+1, j-1 {
			page[i], page[j] = page[j], page[i]
		}
		hasNext, hasPrevious = current.ok || offset > 0, following.ok
		nextPos, prevPos = current, following
	} else {
		hasNext, hasPrevious = following.ok, current.ok || offset > 0
		nextPos, prevPos = following, current
	}
	env := cursorEnvelope{Results: page}
	if hasNext {
		compare := nextPos
		if len(page) > 0 && reverse && offset > 0 {
			compare = positionOf(page[len(page)-1])
		}
		o, p, unique := 0, position{}, false
		for i := len(page) - 1; i >= 0; i-- {
			if p = positionOf(page[i]); p != compare {
				unique = true
				break
			}
			compare = p
			o++
		}
		if len(page) > 0 && !unique {
			switch {
			case !hasPrevious:
				o, p = size, position{}
			case reverse:
				o, p = 0, prevPos
			default:
				o, p = offset+size, prevPos
			}
		}
		if len(page) == 0 {
			p = nextPos
		}
		env.Next = link(r, "cursor", encodeCursor(o, false, p))
	}
	if hasPrevious {
		compare := prevPos
		if len(page) > 0 && !reverse && offset > 0 {
			compare = positionOf(page[0])
		}
		o, p, unique := 0, position{}, false
		for _, b := range page {
			if p = positionOf(b); p != compare {
				unique = true
				break
			}
			compare = p
			o++
		}
		if len(page) > 0 && !unique {
			switch {
			case !hasNext:
				o, p = size, position{}
			case reverse:
				o, p = offset+size, nextPos
			default:
				o, p = 0, nextPos
			}
		}
		if len(page) == 0 {
			p = prevPos
		}
		env.Previous = link(r, "cursor", encodeCursor(o, true, p))
	}
	writeJSON(w, http.StatusOK, env)
}

// decodeCursor reads DRF's cursor: base64 of "o=OFFSET&r=1&p=POSITION".
func decodeCursor(raw string) (offset int, reverse bool, p position, err error) {
	b, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return 0, false, p, err
	}
	tokens, err := url.ParseQuery(string(b))
	if err != nil {
		return 0, false, p, err
	}
	if o := tokens.Get("o"); o != "" {
		if offset, err = strconv.Atoi(o); err != nil {
			return 0, false, p, err
		}
		offset = min(max(offset, 0), offsetCutoff)
	}
	if v, ok := tokens["p"]; ok {
		p = position{v[0], true}
	}
	return offset, tokens.Get("r") == "1", p, nil
}

// encodeCursor writes DRF's cursor.
func encodeCursor(offset int, reverse bool, p position) string {
	var parts []string
	if offset != 0 {
		parts = append(parts, "o="+strconv.Itoa(offset))
	}
	if reverse {
		parts = append(parts, "r=1")
	}
	if p.ok {
		parts = append(parts, "p="+url.QueryEscape(p.text))
	}
	return base64.StdEncoding.EncodeToString([]byte(strings.Join(parts, "&")))
}

// dbTime is t as the database stores datetimes.
func dbTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05.000000")
	}
	return t.Format(time.DateTime)
}

func (s *server) book(w http.ResponseWriter, r *http.Request) {
	var b book
	err := s.detail.GetContext(r.Context(), &b, chi.URLParam(r, "id"))
	if errors.Is(err, sql.ErrNoRows) {
		writeJSON(w, http.StatusNotFound, detail{"Not found."})
		return
	}
	if err != nil {
		fail(w, err)
		return
	}
	b.Created = b.Created.UTC()
	writeJSON(w, http.StatusOK, b)
}

// books runs a page query: args, then the limit and offset.
func (s *server) books(ctx context.Context, stmt *sqlx.Stmt, limit, offset int, args ...any) ([]book, error) {
	books := make([]book, 0, limit)
	if err := stmt.SelectContext(ctx, &books, append(args, limit, offset)...); err != nil {
		return nil, err
	}
	for i := range books {
		books[i].Created = books[i].Created.UTC()
	}
	return books, nil
}

// link is the request's absolute URL with key set to value ("" removes it).
func link(r *http.Request, key, value string) *string {
	return absolute(r, replace(r.URL.Query(), key, value))
}

func replace(q url.Values, key, value string) url.Values {
	c := url.Values{}
	for k, v := range q {
		c[k] = v
	}
	if value == "" {
		delete(c, key)
	} else {
		c.Set(key, value)
	}
	return c
}

func absolute(r *http.Request, q url.Values) *string {
	u := "http://" + r.Host + r.URL.Path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return &u
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fail(w, err)
		return
	}
	body := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func fail(w http.ResponseWriter, err error) {
	log.Print(err)
	writeJSON(w, http.StatusInternalServerError, detail{"A server error occurred."})
}
