// Package tables holds the queryset sources of contrib/'s models: made
// once per model and database, at their first use, since contrib's
// stores (auth.Users, authtoken.Tokens, ...) are plain structs, copied
// as configuration, whose zero value but their DB is ready.
package tables

import (
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/queryset"
)

// key is the key of T's source over db in sources.
type key[T any] struct{ db *sqlx.DB }

// made is a source, or the error of making it.
type made[T any] struct {
	src *queryset.SQLSource[T]
	err error
}

// sources holds the sources made, by key.
var sources sync.Map

// Of returns the source of model T over db: its table, columns and
// ordering from T's model declaration, made at the first call for db.
func Of[T any](db *sqlx.DB) (*queryset.SQLSource[T], error) {
	if m, ok := sources.Load(key[T]{db}); ok {
		return m.(made[T]).src, m.(made[T]).err
	}
	var m made[T]
	m.src, m.err = queryset.NewSQL[T](db, queryset.SQLConfig{})
	v, _ := sources.LoadOrStore(key[T]{db}, m)
	return v.(made[T]).src, v.(made[T]).err
}
