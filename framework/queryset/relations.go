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
// "tags__name" (a many-to-many field), "posts__title" (a reverse side,
// of a foreign key or of a many-to-many field, by its related query
// name: queryName),
// "post__author__username" (one relation after another). Its condition
// is on the related column; an item meets it when a row it reaches
// meets it, each item once.
type relationPath struct {
	name  string
	steps []relationStep
	// mf is the last related model's field compared; f, its struct field.
	mf *models.Field
	f  *structs.Field
}

// relationStep is one relation of a path from a model whose primary
// key column is key: a foreign key of it (fk), a many-to-many field
// (m, the reverse side's turned around), or a foreign key of the
// related model to it (rev, the reverse side of a foreign key).
type relationStep struct {
	fk  *models.Field
	m   *models.ManyToMany
	rev *models.Field
	// table is the related model's, which rev belongs to.
	table string
	key   string
	// reverse reports a reverse side (rev, or a many-to-many field
	// turned around), relatedName its related_name.
	reverse     bool
	relatedName string
}

// relationPathOf resolves name, a path of d's relations ending in a field
// of the last related model (its primary key by "pk"): a related model
// among the models described so far (models.Described), a reverse relation
// among those of installed; an *UnknownFieldError when it names none.
func relationPathOf(d *models.Description, name string, installed *models.Registry) (*relationPath, error) {
	parts := strings.Split(name, "__")
	if d == nil || len(parts) < 2 {
		return nil, &UnknownFieldError{Field: name}
	}
	p := &relationPath{name: name}
	for _, part := range parts[:len(parts)-1] {
		step := relationStep{key: d.PrimaryKey.Column}
		var table string
		var next *models.Description
		if f := d.Field(part); f != nil && f.Related != nil {
			step.fk, table = f, f.Related.Table
		}
		for _, m := range d.ManyToMany {
			if m.Name == part {
				through, err := m.ThroughKeys(d.Meta.Table)
				if err != nil {
					return nil, fmt.Errorf("queryset: lookup %q: %w", name, err)
				}
				step.m, table = through, m.Table
			}
		}
		if table == "" {
			step, next = reverseStep(d, part, installed)
			if next == nil {
				return nil, &UnknownFieldError{Field: name}
			}
		}
		p.steps = append(p.steps, step)
		if next == nil {
			described := models.Described().OfTable(table)
			if len(described) == 0 {
				return nil, fmt.Errorf("queryset: lookup %q: no model of the table %q is described (declare its source, serializer or migrations first)", name, table)
			}
			if next = relatedModel(described, parts[len(p.steps)], installed); next == nil {
				return nil, &UnknownFieldError{Field: name}
			}
		}
		d = next
	}
	f := d.Field(parts[len(parts)-1])
	if parts[len(parts)-1] == "pk" {
		f = d.PrimaryKey
	}
	if f == nil || f.Struct == nil {
		return nil, &UnknownFieldError{Field: name}
	}
	p.mf, p.f = f, f.Struct
	return p, nil
}

// relatedPath is relationPathOf from the described model of table that
// has the path's first relation.
func relatedPath(table, name string, installed *models.Registry) (*relationPath, error) {
	first, _, _ := strings.Cut(name, "__")
	d := relatedModel(models.Described().OfTable(table), first, installed)
	if d == nil {
		return nil, fmt.Errorf("queryset: lookup %q: no described model of the table %q has %q (declare its source, serializer or migrations first)", name, table, first)
	}
	return relationPathOf(d, name, installed)
}

// reverseStep is the step from d across the reverse side named (queryName)
// of a foreign key to d of a model of installed, or of a many-to-many
// field to d (turned around: its through table read from d's side), and
// the model it reaches; nil when none is named so.
func reverseStep(d *models.Description, name string, installed *models.Registry) (relationStep, *models.Description) {
	for _, r := range installed.ReferencesTo(d.Meta.Table) {
		if queryName(r.Model, r.Field.Related.RelatedQueryName, r.Field.Related.RelatedName) == name && r.Field.Related.Column == d.PrimaryKey.Column {
			return relationStep{rev: r.Field, table: r.Model.Meta.Table, key: d.PrimaryKey.Column,
				reverse: true, relatedName: r.Field.Related.RelatedName}, r.Model
		}
		// r may be a through table's foreign key: the many-to-many
		// field is the other model's.
		for _, g := range r.Model.Fields {
			if g == r.Field || g.Related == nil {
				continue
			}
			for _, owner := range installed.OfTable(g.Related.Table) {
				for _, m := range owner.ManyToMany {
					if queryName(owner, m.RelatedQueryName, m.RelatedName) == name && m.Through == r.Model.Meta.Table && m.Table == d.Meta.Table {
						m, err := m.ThroughKeys(owner.Meta.Table)
						if err != nil {
							continue
						}
						back := &models.ManyToMany{Name: name, Table: owner.Meta.Table, Column: owner.PrimaryKey.Column,
							Through: m.Through, From: m.To, To: m.From}
						return relationStep{m: back, key: d.PrimaryKey.Column, reverse: true, relatedName: m.RelatedName}, owner
					}
				}
			}
		}
	}
	return relationStep{}, nil
}

// queryName is the name a lookup from the related model gives the reverse
// side of a relation of model, as Django's related_query_name(): the
// relation's related_query_name, else its related_name, else the model's
// name in lower case; "" for none, when the reverse side is hidden (a
// related_name ending in "+") or is an automatic through table's, whose
// many-to-many field is reached from the other model instead.
func queryName(model *models.Description, relatedQueryName, relatedName string) string {
	switch {
	case relatedQueryName != "":
		return relatedQueryName
	case strings.HasSuffix(relatedName, "+"):
		return ""
	case relatedName != "":
		return relatedName
	case model.Type == nil:
		return ""
	}
	return strings.ToLower(model.Meta.Name)
}

// relatedModel is the first of the described models of a table that has
// the path's next field (a relation, a reverse one among installed, or
// the field compared); nil when none has.
func relatedModel(described []*models.Description, next string, installed *models.Registry) *models.Description {
	for _, d := range described {
		if next == "pk" || d.Field(next) != nil {
			return d
		}
		for _, m := range d.ManyToMany {
			if m.Name == next {
				return d
			}
		}
		if _, ok := reverseStep(d, next, installed); ok != nil {
			return d
		}
	}
	return nil
}

// sql is the condition of the path: the item's foreign key (or key)
// among those of the related rows that meet cond, which compares the
// related column of the last table, named by alias. With orMissing (an
// isnull=True, which Django reads over LEFT OUTER JOINs), an item that
// reaches no related row at a step meets it too.
func (p *relationPath) sql(t *sqlTable, cond func(alias string) string, orMissing bool) string {
	var b, end strings.Builder
	outer := t.alias
	for i, s := range p.steps {
		alias := store.QuoteName("rel" + strconv.Itoa(i))
		var in, missing string
		switch {
		case s.fk != nil:
			in = outer + "." + store.QuoteName(s.fk.Column) + " IN (SELECT " + alias + "." + store.QuoteName(s.fk.Related.Column) +
				" FROM " + store.QuoteName(s.fk.Related.Table) + " " + alias + " WHERE "
			missing = outer + "." + store.QuoteName(s.fk.Column) + " IS NULL"
		case s.rev != nil:
			in = outer + "." + store.QuoteName(s.key) + " IN (SELECT " + alias + "." + store.QuoteName(s.rev.Column) +
				" FROM " + store.QuoteName(s.table) + " " + alias + " WHERE "
			missing = outer + "." + store.QuoteName(s.key) + " NOT IN (SELECT " + alias + "." + store.QuoteName(s.rev.Column) +
				" FROM " + store.QuoteName(s.table) + " " + alias + " WHERE " + alias + "." + store.QuoteName(s.rev.Column) + " IS NOT NULL)"
		default:
			through := store.QuoteName("through" + strconv.Itoa(i))
			in = outer + "." + store.QuoteName(s.key) + " IN (SELECT " + through + "." + store.QuoteName(s.m.From) +
				" FROM " + store.QuoteName(s.m.Through) + " " + through + " INNER JOIN " + store.QuoteName(s.m.Table) + " " + alias +
				" ON (" + alias + "." + store.QuoteName(s.m.Column) + " = " + through + "." + store.QuoteName(s.m.To) + ") WHERE "
			missing = outer + "." + store.QuoteName(s.key) + " NOT IN (SELECT " + through + "." + store.QuoteName(s.m.From) +
				" FROM " + store.QuoteName(s.m.Through) + " " + through + ")"
		}
		if orMissing {
			b.WriteString("(" + missing + " OR ")
			end.WriteByte(')')
		}
		b.WriteString(in)
		end.WriteByte(')')
		outer = alias
	}
	return b.String() + cond(outer) + end.String()
}

// orderPath resolves name, an ordering across foreign keys
// ("author__username", "post__author__username"), as Django orders by
// it: the column of the last related model, reached by a join per
// foreign key. A path across a many-to-many field or a reverse side is
// refused, since it would repeat an item once per related row.
func (m *model) orderPath(name string) (*relationPath, error) {
	p, err := m.pathOf(name)
	if err != nil {
		return nil, err
	}
	for i, s := range p.steps {
		if s.fk == nil {
			return nil, fmt.Errorf("queryset: ordering %q follows %q, a relation to many rows, which would repeat items; order by a field reached by foreign keys", name, strings.Split(name, "__")[i])
		}
	}
	return p, nil
}

// pathOf is relationPathOf from the model, resolved once per name.
func (m *model) pathOf(name string) (*relationPath, error) {
	if p, ok := m.paths.Load(name); ok {
		return p.(*relationPath), nil
	}
	p, err := relationPathOf(m.rel, name, m.installed)
	if err != nil {
		return nil, err
	}
	m.paths.Store(name, p)
	return p, nil
}

// orderJoins are the joins of the paths of order, as Django joins them
// to order by a related column: a foreign key that is null=True, and
// every one after it, by LEFT OUTER JOIN (an item without a related row
// stays, its value NULL, placed where the database places NULLs), the
// others by INNER JOIN; paths with a common start share its joins. last
// is the alias of each path's last table.
func (t *sqlTable) orderJoins(order []orderTerm) (joins string, last map[*relationPath]string) {
	var b strings.Builder
	aliases := map[string]string{}
	for _, o := range order {
		if o.path == nil {
			continue
		}
		if last == nil {
			last = map[*relationPath]string{}
		}
		outer, alias := false, t.alias
		parts := strings.Split(o.path.name, "__")
		for i, s := range o.path.steps {
			outer = outer || s.fk.Null
			prefix := strings.Join(parts[:i+1], "__")
			next, ok := aliases[prefix]
			if !ok {
				next = store.QuoteName("ord" + strconv.Itoa(len(aliases)))
				aliases[prefix] = next
				join := " INNER JOIN "
				if outer {
					join = " LEFT OUTER JOIN "
				}
				b.WriteString(join + store.QuoteName(s.fk.Related.Table) + " " + next + " ON (" + next + "." + store.QuoteName(s.fk.Related.Column) +
					" = " + alias + "." + store.QuoteName(s.fk.Column) + ")")
			}
			alias = next
		}
		last[o.path] = alias
	}
	return b.String(), last
}

// joinSQL adds to joins the joins of links from the table named from
// (quoted), each aliased by prefix and the Django path so far ("post",
// "post__author"), once per alias, and returns the last alias, unquoted.
// A link after a nullable one, or every link when outer, is a LEFT OUTER
// JOIN, as select_related joins them; the others are INNER JOINs (inner
// reports only those).
func joinSQL(joins *strings.Builder, joined map[string]bool, from, prefix string, links []*models.Field, outer bool) (path string, inner bool) {
	path = prefix
	for _, l := range links {
		if path != "" {
			path += "__"
		}
		path += l.Name
		alias := store.QuoteName(path)
		outer = outer || l.Null
		if !joined[path] {
			joined[path] = true
			kind := " INNER JOIN "
			if outer {
				kind = " LEFT OUTER JOIN "
			}
			joins.WriteString(kind + store.QuoteName(l.Related.Table) + " " + alias + " ON (" + from + "." +
				store.QuoteName(l.Column) + " = " + alias + "." + store.QuoteName(l.Related.Column) + ")")
		}
		from = alias
	}
	return path, !outer
}
