package queryset

import (
	"context"

	"github.com/go-drf/drf/framework/store"
)

// Atomicer is implemented by sources that can make several writes in one
// transaction (SQLSource): generic views create the items of a list
// through it, all or none.
type Atomicer interface {
	// Atomic runs fn as Django's transaction.atomic() runs its block: the
	// writes that fn makes with the context it is given are committed
	// together when fn returns nil, and none of them otherwise.
	Atomic(ctx context.Context, fn func(ctx context.Context) error) error
}

// Atomic runs fn in an atomic block of the source's database
// (store.Atomic; a savepoint of the transaction ctx carries, if any): the
// writes of the sources over that database made with fn's context are
// all committed, or none.
func (s *SQLSource[T]) Atomic(ctx context.Context, fn func(ctx context.Context) error) error {
	return store.Atomic(ctx, s.t.db, fn)
}
