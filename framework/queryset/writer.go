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

// ChangeWriter is implemented by sources that can save only what changed
// in an item (SQLSource): generic views save a partial update (PATCH)
// through it, so that concurrent PATCHes of different fields of one item
// all stay.
type ChangeWriter[T any] interface {
	// UpdateChanged saves the fields whose values differ between before
	// (the stored item as read) and item, and fills item in as Update does.
	UpdateChanged(ctx context.Context, before, item *T) error
}
