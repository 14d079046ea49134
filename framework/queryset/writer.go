package queryset

import "context"

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

// FieldLister is implemented by sources that know their fields; filters
// use it to drop names a source does not have.
type FieldLister interface {
	// Fields lists the field names the source can filter and order by.
	Fields() []string
}
