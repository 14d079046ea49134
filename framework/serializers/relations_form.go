package serializers

import (
	"fmt"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/reverse"
)

// RelatedRowsQuery lists rows of a related table for a form's select:
// each row's Value and Display columns, as text, ordered by Value, Limit
// rows at most.
type RelatedRowsQuery struct {
	// Table is the related table.
	Table string
	// Value is the column an option sends (the key, or a slug); Display
	// the column it shows.
	Value, Display string
	// Limit is the most rows to list.
	Limit int
}

// DRF's html_cutoff of a relational field's select and its text.
const (
	relatedCutoff     = 1000
	relatedCutoffText = "More than 1000 items..."
)

// RelatedChoices lists the choices of the writable relational field
// named field, through c's RelatedRows (nil when c cannot list rows): the
// related rows as DRF's RelatedField.iter_options gives them to a form's
// select, the value the field's representation of the row (its key, its
// slug, or for a HyperlinkedRelatedField its URL for c's Request, which
// keeps the request's format suffix), the label its display column;
// beyond 1000 rows, a last choice of value framework.RelatedCutoff,
// "More than 1000 items...".
func (s *Serializer[T]) RelatedChoices(field string, c *Context) ([]framework.Choice, error) {
	f, ok := s.byName[field]
	if !ok || f.rel == nil || f.readOnly {
		return nil, fmt.Errorf("serializers: %q is no writable relational field", field)
	}
	if c == nil || c.RelatedRows == nil {
		return nil, nil
	}
	r := f.rel
	value := r.key
	if r.kind == relSlug {
		value = r.slug
	}
	rows, err := c.RelatedRows(RelatedRowsQuery{Table: r.table, Value: value, Display: r.display, Limit: relatedCutoff + 1})
	if err != nil {
		return nil, err
	}
	out := make([]framework.Choice, 0, len(rows))
	for i, row := range rows {
		if i == relatedCutoff {
			out = append(out, framework.Choice{Value: framework.RelatedCutoff, Label: relatedCutoffText})
			break
		}
		v := row[0]
		if r.kind == relLink {
			if c.Request == nil {
				return nil, fmt.Errorf("serializers: hyperlinked field %q needs the request in the serializer context", field)
			}
			if v, err = reverse.Link(r.route, map[string]string{"pk": v}, c.Request); err != nil {
				return nil, err
			}
		}
		out = append(out, framework.Choice{Value: v, Label: row[1]})
	}
	return out, nil
}
