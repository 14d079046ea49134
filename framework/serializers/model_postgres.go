package serializers

import (
	"fmt"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
)

// fromPostgresField derives the field of django.contrib.postgres'
// fields as DRF's ModelSerializer does: an ArrayField is a ListField
// whose child is its base field's (build_standard_field of the
// base_field: its label, its max_length, an EmailField's, URLField's or
// SlugField's kind) and which may be empty when the ArrayField is
// blank (allow_empty=False otherwise) and which holds at most size
// items (the ArrayMaxLengthValidator the model field keeps); an HStoreField is DRF's
// HStoreField, a DictField of CharField(allow_blank=True,
// allow_null=True). A NULL array or hstore (a pointer to the slice or
// map) is refused: the ListField and DictField hold the slice or map
// itself.
func (f *field) fromPostgresField(mf *models.Field) error {
	if f.container == nil {
		return fmt.Errorf("a nullable %s (%s) has no serializer field here: leave it out of the fields, or declare it %s, NOT NULL",
			mf.Kind, f.sf.Type, f.sf.Type.Elem())
	}
	child := f.container.child
	if mf.Kind == models.HStoreField {
		child.allowBlank = true
		return nil
	}
	f.allowEmpty = mf.Blank
	f.container.size = mf.Size
	base := mf.Base
	// The base field's label is the ArrayField's verbose name, as
	// Django's set_attributes_from_name gives the base field its name.
	child.label = (&field{name: base.Name}).labelText()
	if base.MaxLength > 0 {
		child.maxLength = base.MaxLength
	}
	child.textField(base.Kind, true)
	return nil
}

// msgArraySize is Django's ArrayMaxLengthValidator message.
const msgArraySize = "List contains %d %s, it should contain no more than %d."

// sizeCheck is the ArrayMaxLengthValidator of an ArrayField's size,
// run once the items are valid, as DRF runs the model field's
// validators: the message of a list of n items, more than the size; nil
// otherwise. Django 3.2 (the DRF 3.14 level) picks "item" or "items" by
// the size, Django 5.2 (the DRF 3.18 level) by the number of items.
func (c *container) sizeCheck(n int, level compat.Level) []string {
	if c.size == 0 || n <= c.size {
		return nil
	}
	count, noun := n, "items"
	if level == compat.DRF314 {
		count = c.size
	}
	if count == 1 {
		noun = "item"
	}
	return []string{fmt.Sprintf(msgArraySize, n, noun, c.size)}
}
