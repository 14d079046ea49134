package models

import (
	"fmt"
	"reflect"
	"strings"
)

// Via is the foreign key of d, the model of r, that r is read through
// when its drf source is dotted (DRF's source='bar.foos'): r holds the
// rows of r.Table whose r.Column holds the value of d's foreign key bar,
// foos being the reverse accessor of the model bar references; nil for
// a reverse accessor of d itself. Such a field is read-only nested rows,
// a slice of structs. Where a model of r.Table is described, its foreign
// key r.Column must reference bar's table, under the related_name foos
// when it has one.
func (r *Reverse) Via(d *Description) (*Field, error) {
	src, ok := option(r.Field.Tag.Get("drf"), "source")
	if !ok || !strings.Contains(src, ".") {
		return nil, nil
	}
	name, accessor, _ := strings.Cut(src, ".")
	via := d.Field(name)
	switch {
	case strings.Contains(accessor, "."):
		return nil, fmt.Errorf("source %q: a reverse accessor is read through one foreign key of the model, not more", src)
	case via == nil || via.Related == nil:
		return nil, fmt.Errorf("source %q: %q is no foreign key of %s", src, name, d.Meta.Name)
	case r.One || r.Field.Type.Kind() != reflect.Slice || r.Field.Type.Elem().Kind() != reflect.Struct:
		return nil, fmt.Errorf("source %q: a reverse accessor read through a foreign key is read-only nested rows, "+
			"a slice of structs, not %v", src, r.Field.Type)
	}
	for _, referencing := range known.OfTable(r.Table) {
		fk := referencing.Field(r.Column)
		if fk == nil || fk.Related == nil {
			continue
		}
		if fk.Related.Table != via.Related.Table {
			return nil, fmt.Errorf("source %q: %s.%s references %q, not %q, the table %s references",
				src, r.Table, r.Column, fk.Related.Table, via.Related.Table, name)
		}
		if fk.Related.RelatedName != "" && fk.Related.RelatedName != accessor {
			return nil, fmt.Errorf("source %q: the reverse accessor of %s.%s is %q", src, r.Table, r.Column, fk.Related.RelatedName)
		}
	}
	return via, nil
}
