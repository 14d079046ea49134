package queryset

import (
	"context"
	"reflect"
)

// Writer is implemented by sources whose items can be created, saved and
// deleted (a model's table): what generic views call to create, update and
// destroy when the view sets no hook of its own. item is a pointer to the
// source's item type.
type Writer interface {
	// Insert adds item and fills in what the database chose (the key).
	Insert(ctx context.Context, item any) error
	// Update saves item over the stored item with the same key.
	Update(ctx context.Context, item any) error
	// Delete removes the stored item with item's key.
	Delete(ctx context.Context, item any) error
}

// WriteChecker is implemented by Writers that may be read-only by
// configuration (an SQL source with a Query and no Columns), so that a
// view that writes through one is refused at setup rather than failing on
// its first write.
type WriteChecker interface {
	// CanWrite reports whether Insert, Update and Delete can succeed.
	CanWrite() bool
}

// FieldLister is implemented by sources that know their fields; filters
// use it to drop names a source does not have.
type FieldLister interface {
	// Fields lists the field names the source can filter and order by.
	Fields() []string
}

// Typed is implemented by sources that know the type of their items (SQL
// and slice sources); a generic view of another model refuses the source
// at setup rather than answering 500 on every request.
type Typed interface {
	// ItemType is the type T of the source's *T items.
	ItemType() reflect.Type
}
