package serializers

import (
	"cmp"
	"fmt"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
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
	// Limit is the most rows to list; 0 lists them all.
	Limit int
	// Where are the conditions the rows meet: the model field's
	// limit_choices_to (RelatedLookup's Where).
	Where []models.Condition
}

// RelatedChoices lists the choices of the writable relational field
// named field, through c's RelatedRows (nil when c cannot list rows): the
// related rows as DRF's RelatedField.iter_options gives them to a form's
// select, the value the field's representation of the row (its key, its
// slug, or for a HyperlinkedRelatedField its URL for c's Request, which
// keeps the request's format suffix), the label its display column. As
// DRF's, the list is cut at the field's html_cutoff (else c's
// HTMLSelectCutoff, 1000 by default): with as many rows, a last choice of
// value framework.RelatedCutoff ends it, "More than 1000 items..." (the
// html_cutoff_text).
func (s *Serializer[T]) RelatedChoices(field string, c *Context) ([]framework.Choice, error) {
	f, ok := s.byName[field]
	if !ok || f.rel == nil || f.readOnly {
		return nil, fmt.Errorf("serializers: %q is no writable relational field", field)
	}
	if c == nil || c.RelatedRows == nil {
		return nil, nil
	}
	r := f.rel
	value := cmp.Or(r.lookup, r.key)
	if r.kind == relSlug {
		value = r.slug
	}
	cutoff, text := f.selectCutoff(c)
	rows, err := c.RelatedRows(RelatedRowsQuery{Table: r.table, Value: value, Display: r.display, Limit: cutoff, Where: r.where})
	if err != nil {
		return nil, err
	}
	out := make([]framework.Choice, 0, len(rows)+1)
	for _, row := range rows {
		v := row[0]
		if r.pkField != "" {
			v = uuidText(v, r.pkField)
		}
		if r.kind == relLink {
			if c.Request == nil {
				return nil, fmt.Errorf("serializers: hyperlinked field %q needs the request in the serializer context", field)
			}
			if v, err = reverse.Link(r.route, map[string]string{r.param(): v}, c.Request); err != nil {
				return nil, err
			}
		}
		out = append(out, framework.Choice{Value: v, Label: row[1]})
	}
	if cutoff > 0 && len(rows) >= cutoff {
		out = append(out, framework.Choice{Value: framework.RelatedCutoff, Label: text})
	}
	return out, nil
}
