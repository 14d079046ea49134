package models

import "fmt"

// Links are the foreign keys (and one-to-ones) the join follows: Via,
// then each of Through on the related model of the one before, among
// the models described so far (Described). A field a null link can leave
// without a row must hold null.
func (j *Join) Links() ([]*Field, error) {
	links := []*Field{j.Via}
	for _, name := range j.Through {
		table := links[len(links)-1].Related.Table
		described := known.OfTable(table)
		if len(described) == 0 {
			return nil, fmt.Errorf("source %q: no model of the table %q is described (declare its source, serializer or migrations first)", j.Source, table)
		}
		var fk *Field
		for _, d := range described {
			if f := d.Field(name); f != nil && f.Related != nil {
				fk = f
				break
			}
		}
		if fk == nil {
			return nil, fmt.Errorf("source %q: %q is no foreign key of the table %q", j.Source, name, table)
		}
		links = append(links, fk)
	}
	if len(links) > 1 && !j.Field.Nullable {
		for _, l := range links {
			if l.Null {
				return nil, fmt.Errorf("source %q passes the nullable foreign key %s: %s must be a pointer or an sql.Null type", j.Source, l.Name, j.Field.Name)
			}
		}
	}
	return links, nil
}
