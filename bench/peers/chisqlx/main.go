// Command chisqlx is the chi + sqlx peer of the load benchmark (bench/run):
// the sample's four benchmarked endpoints written as chi's and sqlx's
// documentation teach, by a Go developer who would not use the framework.
// Plain http.HandlerFuncs on a chi router, a chi middleware for the token,
// sqlx.Get and sqlx.Select into structs (bench/peers/internal/bookshelf),
// encoding/json for the answers. It answers what the sample answers:
//
//	GET /pages/page-number/?page=N&page_size=S
//	GET /pages/limit-offset/?limit=L&offset=N
//	GET /pages/cursor/?cursor=C&page_size=S
//	GET /books/{id}/
//
// with "Authorization: Token KEY" checked against authtoken_token and
// auth_user as DRF's TokenAuthentication checks it.
//
//	chisqlx [-addr 127.0.0.1:8004] DATABASE
//
// DATABASE is the sample's SQLite file or a postgres:// URL.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/bench/peers/internal/bookshelf"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8004", "address to listen on")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: chisqlx [-addr HOST:PORT] DATABASE")
		os.Exit(2)
	}
	store, err := bookshelf.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	log.Printf("chi+sqlx peer on http://%s/ (database %s)", *addr, flag.Arg(0))
	log.Fatal(http.ListenAndServe(*addr, routes(store)))
}

func routes(store *bookshelf.Store) http.Handler {
	h := &handlers{store: store}
	r := chi.NewRouter()
	r.Use(h.authenticate)
	r.Get("/pages/page-number/", h.pageNumber)
	r.Get("/pages/limit-offset/", h.limitOffset)
	r.Get("/pages/cursor/", h.cursor)
	r.Get("/books/{id}/", h.book)
	return r
}

type handlers struct {
	store *bookshelf.Store
}

type userKey struct{}

// authenticate puts the token's user in the request's context, or refuses
// a bad token.
func (h *handlers) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, err := h.store.Authenticate(r.Context(), r.Header.Get("Authorization"))
		var refused *bookshelf.AuthError
		if errors.As(err, &refused) {
			writeJSON(w, http.StatusForbidden, detail{refused.Detail})
			return
		}
		if err != nil {
			serverError(w, err)
			return
		}
		if user != nil {
			r = r.WithContext(context.WithValue(r.Context(), userKey{}, user))
		}
		next.ServeHTTP(w, r)
	})
}

func (h *handlers) pageNumber(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	size := bookshelf.PageSizeOf(atoi(q.Get("page_size")))
	count, err := h.store.CountBooks(r.Context())
	if err != nil {
		serverError(w, err)
		return
	}
	pages := bookshelf.Pages(count, size)
	number, err := bookshelf.PageNumber(q.Get("page"), pages)
	if err != nil {
		writeJSON(w, http.StatusNotFound, detail{err.Error()})
		return
	}
	books, err := h.store.BooksByID(r.Context(), size, (number-1)*size)
	if err != nil {
		serverError(w, err)
		return
	}
	list := bookshelf.List{Count: count, Results: books}
	list.Next, list.Previous = bookshelf.PageLinks(bookshelf.HereOf(r.Host, r.URL), number, pages)
	writeJSON(w, http.StatusOK, list)
}

func (h *handlers) limitOffset(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, offset := bookshelf.LimitOf(atoi(q.Get("limit"))), bookshelf.OffsetOf(atoi(q.Get("offset")))
	count, err := h.store.CountBooks(r.Context())
	if err != nil {
		serverError(w, err)
		return
	}
	books, err := h.store.BooksByID(r.Context(), limit, offset)
	if err != nil {
		serverError(w, err)
		return
	}
	list := bookshelf.List{Count: count, Results: books}
	list.Next, list.Previous = bookshelf.OffsetLinks(bookshelf.HereOf(r.Host, r.URL), limit, offset, count)
	writeJSON(w, http.StatusOK, list)
}

func (h *handlers) cursor(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	size := bookshelf.PageSizeOf(atoi(q.Get("page_size")))
	c, err := bookshelf.DecodeCursor(q.Get("cursor"))
	if err != nil {
		writeJSON(w, http.StatusNotFound, detail{err.Error()})
		return
	}
	books, err := h.store.BooksByCreated(r.Context(), c, size+1)
	if err != nil {
		serverError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, bookshelf.CursorPage(bookshelf.HereOf(r.Host, r.URL), c, size, books))
}

func (h *handlers) book(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		writeJSON(w, http.StatusNotFound, detail{"Not found."})
		return
	}
	b, err := h.store.Book(r.Context(), id)
	if errors.Is(err, sql.ErrNoRows) {
		writeJSON(w, http.StatusNotFound, detail{bookshelf.MsgNoBook})
		return
	}
	if err != nil {
		serverError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// atoi is a query parameter's number, 0 when it is absent or not a number
// (what DRF reads then).
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// detail is DRF's error answer.
type detail struct {
	Detail string `json:"detail"`
}

// writeJSON answers v as DRF's JSON renderer writes it: without escaping
// <, > and &, and without the encoder's final newline.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		serverError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func serverError(w http.ResponseWriter, err error) {
	log.Print(err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = io.WriteString(w, `{"detail":"A server error occurred."}`)
}
