package queryset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// relationPath is a lookup across relations, as Django spells it:
// "author__username" (a foreign key, then a column of the related model),
// "tags__name" (a many-to-many field), "post__author__username" (one
// relation after another). Its condition is on the related column; an
// item meets it when a row it reaches meets it, each item once.
type relationPath struct {
	name  string
	steps []relationStep
	// mf is the last related model's field compared; f, its struct field.
	mf *models.Field
	f  *structs.Field
}

// relationStep is one relation of a path: a foreign key (fk) or a
// many-to-many field (m) of the model before it, whose primary key
// column is key.
type relationStep struct {
	fk  *models.Field
	m   *models.ManyToMany
	key string
}

// relationPath resolves name, a path of d's relations ending in a field
// of the last related model, against the models described so far
// (models.OfTable); an *UnknownFieldError when it names none.
func relationPathOf(d *models.Description, name string) (*relationPath, error) {
	parts := strings.Split(name, "__")
	if d == nil || len(parts) < 2 {
		return nil, &UnknownFieldError{Field: name}
	}
	p := &relationPath{name: name}
	for _, part := range parts[:len(parts)-1] {
		step := relationStep{key: d.PrimaryKey.Column}
		var table string
		if f := d.Field(part); f != nil && f.Related != nil {
			step.fk, table = f, f.Related.Table
		}
		for _, m := range d.ManyToMany {
			if m.Name == part {
				step.m, table = m, m.Table
			}
		}
		if table == "" {
			return nil, &UnknownFieldError{Field: name}
		}
		p.steps = append(p.steps, step)
		described := models.OfTable(table)
		if len(described) == 0 {
			return nil, fmt.Errorf("queryset: lookup %q: no model of the table %q is described (declare its source, serializer or migrations first)", name, table)
		}
		if d = relatedModel(described, parts[len(p.steps)]); d == nil {
			return nil, &UnknownFieldError{Field: name}
		}
	}
	f := d.Field(parts[len(parts)-1])
	if f == nil || f.Struct == nil {
		return nil, &UnknownFieldError{Field: name}
	}
	p.mf, p.f = f, f.Struct
	return p, nil
}

// relatedModel is the first of the described models of a table that has
// the path's next field (a relation, or the field compared); nil when
// none has.
func relatedModel(described []*models.Description, next string) *models.Description {
	for _, d := range described {
		if d.Field(next) != nil {
			return d
		}
		for _, m := range d.ManyToMany {
			if m.Name == next {
				return d
			}
		}
	}
	return nil
}

// sql is the condition of the path: the item's foreign key (or key)
// among those of the related rows that meet cond, which compares the
// related column of the last table, named by alias.
func (p *relationPath) sql(t *sqlTable, cond func(alias string) string) string {
	var b, end strings.Builder
	outer := t.alias
	for i, s := range p.steps {
		alias := store.QuoteName("rel" + strconv.Itoa(i))
		if s.fk != nil {
			b.WriteString(outer + "." + store.QuoteName(s.fk.Column) + " IN (SELECT " + alias + "." + store.QuoteName(s.fk.Related.Column) +
				" FROM " + store.QuoteName(s.fk.Related.Table) + " " + alias + " WHERE ")
		} else {
			through := store.QuoteName("through" + strconv.Itoa(i))
			b.WriteString(outer + "." + store.QuoteName(s.key) + " IN (SELECT " + through + "." + store.QuoteName(s.m.From) +
				" FROM " + store.QuoteName(s.m.Through) + " " + through + " INNER JOIN " + store.QuoteName(s.m.Table) + " " + alias +
				" ON (" + alias + "." + store.QuoteName(s.m.Column) + " = " + through + "." + store.QuoteName(s.m.To) + ") WHERE ")
		}
		end.WriteByte(')')
		outer = alias
	}
	return b.String() + cond(outer) + end.String()
}
