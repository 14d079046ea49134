package serializers

import (
	"github.com/go-drf/drf/framework/exceptions"
)

// RelatedViolation is the validation error of a foreign key column whose
// value names no row (a write the database refused: queryset's
// MissingRelatedError), as DRF's PrimaryKeyRelatedField words it:
// {"owner": ["Invalid pk \"99\" - object does not exist."]}; nil when no
// field of the serializer holds column.
func (s *Serializer[T]) RelatedViolation(column, value string) error {
	for _, f := range s.fields {
		if f.sf != nil && f.sf.Column == column {
			var errs exceptions.ValidationErrors
			errs.Add(f.name, `Invalid pk "`+value+`" - object does not exist.`)
			return exceptions.ValidationError(errs)
		}
	}
	return nil
}
