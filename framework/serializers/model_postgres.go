package serializers

import (
	"fmt"

	"github.com/go-drf/drf/framework/models"
)

// fromPostgresField derives the field of django.contrib.postgres'
// fields as DRF's ModelSerializer does: an ArrayField is a ListField
// whose child is its base field's (build_standard_field of the
// base_field: its label, its max_length, an EmailField's, URLField's or
// SlugField's kind) and which may be empty when the ArrayField is
// blank (allow_empty=False otherwise); an HStoreField is DRF's
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
	base := mf.Base
	// The base field's label is the ArrayField's verbose name, as
	// Django's set_attributes_from_name gives the base field its name.
	child.label = (&field{name: base.Name}).labelText()
	if base.MaxLength > 0 {
		child.maxLength = base.MaxLength
	}
	switch base.Kind {
	case models.TextField:
		child.textarea = true
	case models.EmailField:
		child.kind = kindEmail
	case models.URLField:
		child.kind = kindURL
	case models.SlugField:
		child.kind = kindSlug
	}
	return nil
}
