package migrations

import (
	"slices"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
)

// optimize is the MigrationOptimizer of level's Django on the operations
// this package has: each operation is reduced with a later one when every
// operation between can be optimized through, until nothing changes.
// tables maps the app's tables to their models' names (lower case), to
// tell which model a relation refers to.
func optimize(level compat.Level, ops []Operation, tables map[string]string) []Operation {
	o := optimizer{level: level, tables: tables}
	for {
		next, changed := o.inner(ops)
		if !changed {
			return next
		}
		ops = next
	}
}

// optimizer reduces the operations of an app.
type optimizer struct {
	level  compat.Level
	tables map[string]string
}

// inner is MigrationOptimizer.optimize_inner: the first reduction found,
// made.
func (o optimizer) inner(ops []Operation) ([]Operation, bool) {
ops:
	for i, op := range ops {
		right := true
		for j := i + 1; j < len(ops); j++ {
			merged, through := o.reduce(op, ops[j])
			if merged != nil {
				between := ops[i+1 : j]
				var out []Operation
				out = append(out, ops[:i]...)
				switch {
				case right:
					out = append(out, between...)
					out = append(out, merged...)
				case !slices.ContainsFunc(between, func(b Operation) bool { m, t := o.reduce(b, ops[j]); return m != nil || !t }):
					out = append(out, merged...)
					out = append(out, between...)
				default:
					continue ops
				}
				return append(out, ops[j+1:]...), true
			}
			if !through {
				right = false
			}
		}
	}
	return ops, false
}

// reduce is Django's Operation.reduce of left with right: the operations
// that replace both (non-nil, possibly empty), or whether left can be
// optimized through right.
func (o optimizer) reduce(left, right Operation) (merged []Operation, through bool) {
	switch l := left.(type) {
	case CreateModel:
		name := lower(l.Name)
		switch r := right.(type) {
		case DeleteModel:
			if lower(r.Name) == name {
				return []Operation{}, false
			}
		case AlterUniqueTogether:
			if r.Model == name {
				c := l.clone()
				c.UniqueTogether = cloneSets(r.UniqueTogether)
				return []Operation{c}, false
			}
		case AddField:
			if r.Model == name {
				c := l.clone()
				c.Fields = append(c.Fields, cloneField(r.Field))
				return []Operation{c}, false
			}
		case AlterField:
			if r.Model == name {
				c := l.clone()
				for i := range c.Fields {
					if c.Fields[i].Name == r.Field.Name {
						c.Fields[i] = cloneField(r.Field)
					}
				}
				return []Operation{c}, false
			}
		case RemoveField:
			if r.Model == name {
				c := l.clone()
				c.Fields = slices.DeleteFunc(c.Fields, func(f models.Field) bool { return f.Name == r.Name })
				var sets [][]string
				for _, set := range c.UniqueTogether {
					if set = slices.DeleteFunc(set, func(n string) bool { return n == r.Name }); len(set) > 0 {
						sets = append(sets, set)
					}
				}
				c.UniqueTogether = sets
				return []Operation{c}, false
			}
		case AddIndex:
			// Django 5.0+ folds indexes and constraints into CreateModel.
			if r.Model == name && o.level == compat.Current {
				c := l.clone()
				c.Indexes = append(c.Indexes, Index{Name: r.Index.Name, Fields: slices.Clone(r.Index.Fields)})
				return []Operation{c}, false
			}
		case RemoveIndex:
			if r.Model == name && o.level == compat.Current {
				c := l.clone()
				c.Indexes = slices.DeleteFunc(c.Indexes, func(ix Index) bool { return ix.Name == r.Name })
				return []Operation{c}, false
			}
		case AddConstraint:
			if r.Model == name && o.level == compat.Current {
				c := l.clone()
				c.Constraints = append(c.Constraints, cloneConstraint(r.Constraint))
				return []Operation{c}, false
			}
		case RemoveConstraint:
			if r.Model == name && o.level == compat.Current {
				c := l.clone()
				c.Constraints = slices.DeleteFunc(c.Constraints, func(x models.Constraint) bool { return x.Name == r.Name })
				return []Operation{c}, false
			}
		}
		return nil, !o.referencesModel(right, l.Name)
	case DeleteModel:
		return nil, !o.referencesModel(right, l.Name)
	case AlterUniqueTogether:
		switch r := right.(type) {
		case AlterUniqueTogether:
			if r.Model == l.Model {
				return []Operation{r}, false
			}
		case DeleteModel:
			if lower(r.Name) == l.Model {
				return []Operation{r}, false
			}
		}
		return nil, !o.referencesModel(right, l.Model)
	case AddField:
		switch r := right.(type) {
		case AlterField:
			if r.Model == l.Model && r.Field.Name == l.Field.Name {
				return []Operation{AddField{Model: l.Model, Field: cloneField(r.Field)}}, false
			}
		case RemoveField:
			if r.Model == l.Model && r.Name == l.Field.Name {
				return []Operation{}, false
			}
		}
		return nil, !o.referencesField(right, l.Model, l.Field.Name)
	case AlterField:
		if r, ok := right.(RemoveField); ok && r.Model == l.Model && r.Name == l.Field.Name {
			return []Operation{r}, false
		}
		return nil, !o.referencesField(right, l.Model, l.Field.Name)
	case RemoveField:
		if r, ok := right.(DeleteModel); ok && lower(r.Name) == l.Model {
			return []Operation{r}, false
		}
		return nil, !o.referencesField(right, l.Model, l.Name)
	}
	// AddIndex and RemoveIndex reduce with nothing.
	return nil, false
}

// clone is a deep copy of c.
func (c CreateModel) clone() CreateModel {
	m := (&ModelState{Name: c.Name, Table: c.Table, Fields: c.Fields, UniqueTogether: c.UniqueTogether,
		Indexes: c.Indexes, Constraints: c.Constraints}).clone()
	return CreateModel{Name: m.Name, Table: m.Table, Fields: m.Fields, UniqueTogether: m.UniqueTogether,
		Indexes: m.Indexes, Constraints: m.Constraints}
}

// refersTo reports a relation to the model of that name.
func (o optimizer) refersTo(f *models.Field, model string) bool {
	return f.Related != nil && o.tables[f.Related.Table] == model
}

// referencesModel is Django's Operation.references_model.
func (o optimizer) referencesModel(op Operation, model string) bool {
	model = lower(model)
	switch op := op.(type) {
	case CreateModel:
		return lower(op.Name) == model || slices.ContainsFunc(op.Fields, func(f models.Field) bool { return o.refersTo(&f, model) })
	case DeleteModel:
		return true // the deleted model may have referred to it
	case AddField:
		return op.Model == model || o.refersTo(&op.Field, model)
	case AlterField:
		return op.Model == model || o.refersTo(&op.Field, model)
	case RemoveField:
		return op.Model == model
	case AlterUniqueTogether:
		return op.Model == model
	case AlterModelTable:
		return lower(op.Name) == model
	}
	return true // AddIndex and RemoveIndex may refer to any model.
}

// referencesField is Django's Operation.references_field.
func (o optimizer) referencesField(op Operation, model, field string) bool {
	switch op := op.(type) {
	case AddField:
		return op.Model == model && op.Field.Name == field || o.refersTo(&op.Field, model) && op.Field.Related.Column == field
	case AlterField:
		return op.Model == model && op.Field.Name == field || o.refersTo(&op.Field, model) && op.Field.Related.Column == field
	case RemoveField:
		return op.Model == model && op.Name == field
	case AlterUniqueTogether:
		return op.Model == model && (len(op.UniqueTogether) == 0 ||
			slices.ContainsFunc(op.UniqueTogether, func(set []string) bool { return slices.Contains(set, field) }))
	}
	return o.referencesModel(op, model)
}
