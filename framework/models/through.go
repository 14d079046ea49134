package models

import "fmt"

// ThroughKeys is m, the many-to-many field of the model of table, with
// From and To the columns its through table holds the two sides' keys
// in. Those of Django's automatic through table are m's own; a declared
// through model's are its own foreign keys, found as Django finds them
// without through_fields: the one to table, and the one to the related
// table (the first and the second to table when both sides are the same
// model), on the first model of the through table described so far
// (Described) that has them. A through model not described, or whose
// foreign keys are missing or ambiguous (Django's checks fields.E333 to
// E336), is an error naming it.
func (m *ManyToMany) ThroughKeys(table string) (*ManyToMany, error) {
	if m.AutoCreated || m.Reverse {
		return m, nil
	}
	described := known.OfTable(m.Through)
	if len(described) == 0 {
		return nil, fmt.Errorf("many-to-many field %s: no model of its through table %q is described "+
			"(declare its source, serializer or migrations first)", m.Name, m.Through)
	}
	var first error
	for _, d := range described {
		from, to, err := d.throughKeys(m.Name, table, m.Table)
		if err == nil {
			r := *m
			r.From, r.To = from, to
			return &r, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// throughKeys are the columns of d's foreign keys to table and to
// related, as Django's ManyToManyField reads an intermediate model
// (_get_m2m_attr and _get_m2m_reverse_attr).
func (d *Description) throughKeys(field, table, related string) (from, to string, err error) {
	var toTable, toRelated []string
	for _, f := range d.Fields {
		if f.Related == nil {
			continue
		}
		if f.Related.Table == table {
			toTable = append(toTable, f.Column)
		}
		if f.Related.Table == related && table != related {
			toRelated = append(toRelated, f.Column)
		}
	}
	if table == related {
		switch {
		case len(toTable) > 2:
			return "", "", fmt.Errorf("many-to-many field %s: the through model %s has more than two foreign keys to %q, which is ambiguous",
				field, d.Meta.Name, table)
		case len(toTable) < 2:
			return "", "", fmt.Errorf("many-to-many field %s: the through model %s needs two foreign keys to %q", field, d.Meta.Name, table)
		}
		return toTable[0], toTable[1], nil
	}
	for _, side := range []struct {
		keys  []string
		table string
	}{{toTable, table}, {toRelated, related}} {
		switch {
		case len(side.keys) > 1:
			return "", "", fmt.Errorf("many-to-many field %s: the through model %s has more than one foreign key to %q, which is ambiguous",
				field, d.Meta.Name, side.table)
		case len(side.keys) == 0:
			return "", "", fmt.Errorf("many-to-many field %s: the through model %s has no foreign key to %q", field, d.Meta.Name, side.table)
		}
	}
	return toTable[0], toRelated[0], nil
}
