package queryset

import "context"

// Writer is implemented by sources whose items can be created, saved and
// deleted (a model's table): what generic views call to create, update and
// destroy when the view sets no hook of its own.
type Writer[T any] interface {
	// Insert adds item and fills in what the database chose (the key).
	Insert(ctx context.Context, item *T) error
	// Update saves item over the stored item with the same key.
	Update(ctx context.Context, item *T) error
	// Delete removes the stored item with item's key.
	Delete(ctx context.Context, item *T) error
}

// WriteChecker is implemented by Writers that may be read-only by
// configuration (an SQL source with a Query and no Columns), so that a
// view that writes through one is refused at setup rather than failing on
// its first write.
type WriteChecker interface {
	// CanWrite reports whether Insert, Update and Delete can succeed.
	CanWrite() bool
}
