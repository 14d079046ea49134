// Command humasqlx is the huma v2 + sqlx peer of the load benchmark
// (bench/run): the sample's four benchmarked endpoints written as huma's
// documentation teaches. Operations registered with huma.Register on typed
// input and output structs, on chi through the humachi adapter; the token
// checked by a router-agnostic huma middleware; the request's URL, which
// DRF's links are built from, taken by a request resolver; the errors in
// DRF's {"detail": ...} shape through huma.NewError ("Custom Errors"); the
// books read with sqlx (bench/peers/internal/bookshelf). It answers what the
// sample answers:
//
//	GET /pages/page-number/?page=N&page_size=S
//	GET /pages/limit-offset/?limit=L&offset=N
//	GET /pages/cursor/?cursor=C&page_size=S
//	GET /books/{id}/
//
// with "Authorization: Token KEY" checked against authtoken_token and
// auth_user as DRF's TokenAuthentication checks it. Huma also serves its
// OpenAPI document (/openapi.json) and docs (/docs), as its default
// configuration does.
//
//	humasqlx [-addr 127.0.0.1:8005] DATABASE
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

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/bench/peers/internal/bookshelf"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8005", "address to listen on")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: humasqlx [-addr HOST:PORT] DATABASE")
		os.Exit(2)
	}
	store, err := bookshelf.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	router := chi.NewMux()
	register(humachi.New(router, config()), store)
	log.Printf("huma+sqlx peer on http://%s/ (database %s)", *addr, flag.Arg(0))
	log.Fatal(http.ListenAndServe(*addr, router))
}

// config is huma's default configuration, answering as DRF does: no
// "$schema" field or Link header in the answers ("Disabling $schema"), and
// JSON as DRF's renderer writes it (a custom format).
func config() huma.Config {
	c := huma.DefaultConfig("Bookshelf", "1.0.0")
	c.CreateHooks = nil
	c.Formats = map[string]huma.Format{"application/json": drfJSON, "json": drfJSON}
	return c
}

// drfJSON writes JSON without escaping <, > and & and without the
// encoder's final newline, as DRF's JSONRenderer does.
var drfJSON = huma.Format{
	Marshal: func(w io.Writer, v any) error {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	},
	Unmarshal: json.Unmarshal,
}

// drfError is DRF's error answer.
type drfError struct {
	status int
	Detail string `json:"detail"`
}

func (e *drfError) Error() string  { return e.Detail }
func (e *drfError) GetStatus() int { return e.status }

func init() {
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		return &drfError{status: status, Detail: msg}
	}
}

// RequestURL resolves the request's absolute URL, from which the
// pagination links are built.
type RequestURL struct {
	here bookshelf.Here
}

func (u *RequestURL) Resolve(ctx huma.Context) []error {
	url := ctx.URL()
	u.here = bookshelf.HereOf(ctx.Host(), &url)
	return nil
}

// PageNumberInput is a page of the page-number list.
type PageNumberInput struct {
	RequestURL
	Page     string `query:"page" doc:"A page number, or last"`
	PageSize int    `query:"page_size" doc:"Books per page (5 when absent, at most 20)"`
}

// LimitOffsetInput is a page of the limit/offset list.
type LimitOffsetInput struct {
	RequestURL
	Limit  int `query:"limit" doc:"Books per page (5 when absent, at most 20)"`
	Offset int `query:"offset" doc:"Books to skip"`
}

// CursorInput is a page of the cursor list.
type CursorInput struct {
	RequestURL
	Cursor   string `query:"cursor" doc:"The cursor of a next or previous link"`
	PageSize int    `query:"page_size" doc:"Books per page (5 when absent, at most 20)"`
}

// BookInput names a book.
type BookInput struct {
	ID int64 `path:"id" doc:"The book's id"`
}

// ListOutput is a page-number or limit/offset page.
type ListOutput struct {
	Body bookshelf.List
}

// CursorOutput is a cursor page.
type CursorOutput struct {
	Body bookshelf.CursorList
}

// BookOutput is a book.
type BookOutput struct {
	Body bookshelf.Book
}

type userKey struct{}

func register(api huma.API, store *bookshelf.Store) {
	// The token, when there is one: its user in the context, or a refusal.
	api.UseMiddleware(func(ctx huma.Context, next func(huma.Context)) {
		user, err := store.Authenticate(ctx.Context(), ctx.Header("Authorization"))
		var refused *bookshelf.AuthError
		if errors.As(err, &refused) {
			_ = huma.WriteErr(api, ctx, http.StatusForbidden, refused.Detail)
			return
		}
		if err != nil {
			_ = huma.WriteErr(api, ctx, http.StatusInternalServerError, "A server error occurred.", err)
			return
		}
		if user != nil {
			ctx = huma.WithValue(ctx, userKey{}, user)
		}
		next(ctx)
	})

	huma.Register(api, huma.Operation{
		OperationID: "list-books-page-number",
		Method:      http.MethodGet,
		Path:        "/pages/page-number/",
		Summary:     "Books by page number",
	}, func(ctx context.Context, in *PageNumberInput) (*ListOutput, error) {
		size := bookshelf.PageSizeOf(in.PageSize)
		count, err := store.CountBooks(ctx)
		if err != nil {
			return nil, err
		}
		pages := bookshelf.Pages(count, size)
		number, err := bookshelf.PageNumber(in.Page, pages)
		if err != nil {
			return nil, huma.Error404NotFound(err.Error())
		}
		books, err := store.BooksByID(ctx, size, (number-1)*size)
		if err != nil {
			return nil, err
		}
		out := &ListOutput{Body: bookshelf.List{Count: count, Results: books}}
		out.Body.Next, out.Body.Previous = bookshelf.PageLinks(in.here, number, pages)
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "list-books-limit-offset",
		Method:      http.MethodGet,
		Path:        "/pages/limit-offset/",
		Summary:     "Books by limit and offset",
	}, func(ctx context.Context, in *LimitOffsetInput) (*ListOutput, error) {
		limit, offset := bookshelf.LimitOf(in.Limit), bookshelf.OffsetOf(in.Offset)
		count, err := store.CountBooks(ctx)
		if err != nil {
			return nil, err
		}
		books, err := store.BooksByID(ctx, limit, offset)
		if err != nil {
			return nil, err
		}
		out := &ListOutput{Body: bookshelf.List{Count: count, Results: books}}
		out.Body.Next, out.Body.Previous = bookshelf.OffsetLinks(in.here, limit, offset, count)
		return out, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "list-books-cursor",
		Method:      http.MethodGet,
		Path:        "/pages/cursor/",
		Summary:     "Books by cursor, newest first",
	}, func(ctx context.Context, in *CursorInput) (*CursorOutput, error) {
		size := bookshelf.PageSizeOf(in.PageSize)
		c, err := bookshelf.DecodeCursor(in.Cursor)
		if err != nil {
			return nil, huma.Error404NotFound(err.Error())
		}
		books, err := store.BooksByCreated(ctx, c, size+1)
		if err != nil {
			return nil, err
		}
		return &CursorOutput{Body: bookshelf.CursorPage(in.here, c, size, books)}, nil
	})

	huma.Register(api, huma.Operation{
		OperationID: "get-book",
		Method:      http.MethodGet,
		Path:        "/books/{id}/",
		Summary:     "A book",
	}, func(ctx context.Context, in *BookInput) (*BookOutput, error) {
		b, err := store.Book(ctx, in.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, huma.Error404NotFound(bookshelf.MsgNoBook)
		}
		if err != nil {
			return nil, err
		}
		return &BookOutput{Body: b}, nil
	})
}
