package queryset_test

import (
	"database/sql"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/querysettest"
)

// Get returns the one item whose field holds the value, as Django's
// get(): by the key or a foreign key's Django name, within the source's
// conditions, with its nested rows joined or read after it; no item is
// sql.ErrNoRows, more than one a MultipleObjectsReturnedError, and a
// field or value the model cannot hold an error.
func TestGet(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		srTables(t, db, 0)
		srDescribe(t)
		books := queryset.MustSQL[srBook](db, queryset.SQLConfig{})
		queries()
		b, err := books.SelectRelated("author", "editor").Get(ctx, "id", "3")
		if n := queries(); err != nil || n != 1 || srShow([]*srBook{b}) != "3 three cat(Porto/Porto) ann(Lyon/Lyon)" {
			t.Errorf("Get by key, joined: %d queries (%v), want 1; %+v", n, err, b)
		}
		b, err = books.Get(ctx, "id", "3")
		if n := queries(); err != nil || n != 3 || srShow([]*srBook{b}) != "3 three cat(Porto/Porto) ann(Lyon/Lyon)" {
			t.Errorf("Get by key: %d queries (%v), want 3; %+v", n, err, b)
		}
		for _, c := range []struct {
			src          *queryset.SQLSource[srBook]
			field, value string
			want         string
		}{
			{books, "author", "2", "2 two bob(-/-) -"},
			{books, "author_id", "3", "3 three cat(Porto/Porto) ann(Lyon/Lyon)"},
			{books.Match(queryset.Lookup("title", query.Exact, "four")), "author", "1", "4 four ann(Lyon/Lyon) cat(Porto/Porto)"},
		} {
			b, err := c.src.Get(ctx, c.field, c.value)
			if err != nil || srShow([]*srBook{b}) != c.want {
				t.Errorf("Get(%s=%s): %v %+v, want %s", c.field, c.value, err, b, c.want)
			}
		}
		if b, err := books.Get(ctx, "id", "99"); !errors.Is(err, sql.ErrNoRows) || b != nil {
			t.Errorf("Get of no item: %+v %v, want sql.ErrNoRows", b, err)
		}
		if b, err := books.Match(queryset.Lookup("title", query.Exact, "one")).Get(ctx, "id", "3"); !errors.Is(err, sql.ErrNoRows) || b != nil {
			t.Errorf("Get outside the source's conditions: %+v %v, want sql.ErrNoRows", b, err)
		}
		if b, err := books.Get(ctx, "author", "1"); !errors.As(err, new(*queryset.MultipleObjectsReturnedError)) || b != nil ||
			err.Error() != "get() returned more than one Book -- it returned 2!" {
			t.Errorf("Get of two items: %+v %v, want Django's MultipleObjectsReturned", b, err)
		}
		// Django counts up to MAX_GET_RESULTS, 21 rows.
		if got := (&queryset.MultipleObjectsReturnedError{Model: "Book", Count: 21}).Error(); got != "get() returned more than one Book -- it returned more than 20!" {
			t.Errorf("21 items: %s", got)
		}
		var unknown *queryset.UnknownFieldError
		if _, err := books.Get(ctx, "nope", "1"); !errors.As(err, &unknown) || unknown.Field != "nope" {
			t.Errorf("Get by an unknown field: %v", err)
		}
		if _, err := books.Get(ctx, "id", "x"); err == nil || errors.Is(err, sql.ErrNoRows) {
			t.Errorf("Get by a value that is no integer: %v", err)
		}
		if store.DialectOf(db) == store.PostgreSQL {
			if _, err := books.Get(ctx, "title", "a\x00"); !errors.Is(err, sql.ErrNoRows) {
				t.Errorf("Get by text PostgreSQL cannot hold: %v, want sql.ErrNoRows", err)
			}
		}
		if _, err := books.SelectRelated("x").Get(ctx, "id", "1"); err == nil {
			t.Error("Get through an invalid SelectRelated: no error")
		}
	})
}
