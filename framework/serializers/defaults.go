package serializers

import (
	"fmt"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/structs"
)

// bindDefault reads the drf tag's default=TEXT (DRF's default=) as the
// field reads its input, None being null: a create or a full update
// that leaves the field out gets it, unvalidated as in DRF, and a
// partial update does not. The field is then optional, as DRF's default
// makes it. DRF refuses a default on a required field, and DRF 3.15 and
// later a default on a many-to-many field (whose save would fail); a
// default on any other relation, a list, a dictionary or its child, a
// file, or a value the field would refuse is refused too.
func (f *field) bindDefault() error {
	if f.container != nil && f.container.child.defText != nil {
		return fmt.Errorf("a list's or a dictionary's child has no default")
	}
	if f.defText == nil {
		return nil
	}
	text := *f.defText
	switch {
	case f.nested != nil && f.nested.via != nil && text == "[]":
		// A nested list through a foreign key: [] when that is null.
		f.nested.orEmpty = true
		return nil
	case f.many || f.rel != nil && f.rel.many != nil:
		return fmt.Errorf("The field '%s' is a ManyToMany field and cannot have a default value of %s.", f.name, text)
	case tagRequires(f.sf):
		return fmt.Errorf("May not set both `required` and `default`")
	case f.container != nil || f.rel != nil || f.nested != nil || f.file != nil || f.compute != nil:
		return fmt.Errorf("a default needs a field of one string, number or boolean")
	}
	switch f.sf.Kind {
	case structs.String, structs.Int, structs.Uint, structs.Float, structs.Bool:
	default:
		return fmt.Errorf("a default needs a field of one string, number or boolean")
	}
	var raw any = text
	if text == "None" {
		raw = nil
	}
	v, msgs := f.toInternal(raw, compat.Current, formatsOf(nil))
	if len(msgs) > 0 {
		return fmt.Errorf("default %q: %s", text, strings.Join(msgs, " "))
	}
	// The tag's field replaces the model's, as a declared field does
	// in DRF: a default makes it optional.
	f.def, f.required = &v, false
	return nil
}
