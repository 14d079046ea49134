package migrations

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
)

// Changes are the operations that bring the state from to the models to,
// as the autodetector of level's Django gives them (Django 5.2's at
// compat.Current, Django 3.2's at compat.DRF314): it generates deleted models
// (unique_together emptied, relations removed, DeleteModel), created
// models (each CreateModel without its relations, then an AddField for
// each relation, AddIndex for each index, AddConstraint for each
// constraint and its unique_together), then for the models kept removed
// constraints and indexes, removed, added and altered fields,
// unique_together, added indexes and constraints, and on Django 5.2
// constraints altered in their violation_error_message alone
// (AlterConstraint), then the tables renamed (AlterModelTable); orders
// them by their dependencies within the app (Django 3.2's
// stable_topological_sort, Django 5.2's graphlib static_order), and
// optimizes them (MigrationOptimizer: a relation's AddField or
// unique_together, and on Django 5.2 an index or a constraint, folds into
// its CreateModel unless an operation that may refer to the model comes
// between). A renamed field is a removal and an
// addition, as Django's non-interactive makemigrations has it: a
// migration declares a RenameField or a RenameModel.
func Changes(level compat.Level, from *State, to []*ModelState) ([]Operation, error) {
	return changes(level, from, to, map[string]string{})
}

// changes is Changes, retables holding the tables other apps' models
// had, each to its table now (App.otherTables).
func changes(level compat.Level, from *State, to []*ModelState, retables map[string]string) ([]Operation, error) {
	var ops []planned
	var deleted []string
	for _, m := range from.Models {
		if !slices.ContainsFunc(to, func(n *ModelState) bool { return strings.EqualFold(n.Name, m.Name) }) {
			deleted = append(deleted, m.Name)
		}
	}
	slices.SortFunc(deleted, func(a, b string) int { return strings.Compare(lower(a), lower(b)) })
	var created, kept []*ModelState
	for _, m := range to {
		if from.Model(m.Name) == nil {
			created = append(created, m)
		} else {
			kept = append(kept, m)
		}
	}
	byName := func(a, b *ModelState) int { return strings.Compare(lower(a.Name), lower(b.Name)) }
	slices.SortFunc(created, byName)
	slices.SortFunc(kept, byName)
	// The app's tables, to tell a relation to a model of the app.
	tables := map[string]string{}
	for _, m := range slices.Concat(from.Models, to) {
		tables[m.Table] = lower(m.Name)
	}
	for _, name := range deleted {
		ops = deleteOperations(ops, from, from.Model(name))
	}
	// Django goes through the new models in reverse order, each
	// CreateModel put first: they come in order, the rest of their
	// operations in reverse order.
	for _, m := range slices.Backward(created) {
		ops = createOperations(ops, m, tables)
	}
	// A relation to a kept model whose table changed points to the same
	// model: Django's ForeignKey deconstructs its model, not its table.
	for _, m := range kept {
		if old := from.Model(m.Name); old.Table != m.Table {
			retables[old.Table] = m.Table
		}
	}
	var removedC, removedIx, removed, added, altered, together, addedIx, addedC, alteredC, retabled []planned
	for _, m := range kept {
		old := from.Model(m.Name)
		model := lower(m.Name)
		// Django 5.2's create_altered_constraints: a constraint of the
		// same name that differs in its message alone is altered.
		var alteredNames []string
		for _, c := range m.Constraints {
			i := old.constraint(c.Name)
			if i >= 0 && !constraintsEqual(level, old.Constraints[i], c) && sameInDatabase(old.Constraints[i], c) {
				alteredC = append(alteredC, planned{op: AlterConstraint{Model: model, Name: c.Name, Constraint: cloneConstraint(c)}})
				alteredNames = append(alteredNames, c.Name)
			}
		}
		for _, c := range old.Constraints {
			if !slices.Contains(alteredNames, c.Name) &&
				!slices.ContainsFunc(m.Constraints, func(n models.Constraint) bool { return constraintsEqual(level, n, c) }) {
				removedC = append(removedC, planned{op: RemoveConstraint{Model: model, Name: c.Name}})
			}
		}
		for _, c := range m.Constraints {
			if !slices.Contains(alteredNames, c.Name) &&
				!slices.ContainsFunc(old.Constraints, func(o models.Constraint) bool { return constraintsEqual(level, o, c) }) {
				addedC = append(addedC, planned{op: AddConstraint{Model: model, Constraint: cloneConstraint(c)}})
			}
		}
		for _, ix := range old.Indexes {
			if !slices.ContainsFunc(m.Indexes, func(n Index) bool { return indexEqual(n, ix) }) {
				removedIx = append(removedIx, planned{op: RemoveIndex{Model: model, Name: ix.Name}})
			}
		}
		for _, ix := range m.Indexes {
			if !slices.ContainsFunc(old.Indexes, func(o Index) bool { return indexEqual(o, ix) }) {
				addedIx = append(addedIx, planned{op: AddIndex{Model: model, Index: ix}})
			}
		}
		for _, name := range sortedNames(old.Fields) {
			if m.Field(name) == nil {
				removed = append(removed, planned{op: RemoveField{Model: model, Name: name}, deps: []dependency{{model: model, on: onTogether}}})
			}
		}
		for _, name := range sortedNames(m.Fields) {
			f := m.Field(name)
			switch of := old.Field(name); {
			case of == nil:
				if !f.Null && !f.HasDefault && (!f.Blank || !emptyStringsAllowed(f.Kind)) && f.Kind != models.ManyToManyField {
					return nil, fmt.Errorf("You are trying to add a non-nullable field '%s' to %s without a default; "+
						"we can't do that (the database needs something to populate existing rows): "+
						"give it a default (model:\"default=...\") or make it nullable", name, model)
				}
				added = append(added, planned{op: AddField{Model: model, Field: cloneField(*f)}, deps: targetDeps(f, tables)})
			case !fieldsEqual(deconstructed(*of, retables), deconstructed(*f, nil)):
				altered = append(altered, planned{op: AlterField{Model: model, Field: cloneField(*f)}, deps: targetDeps(f, tables)})
			}
		}
		if old.Table != m.Table {
			retabled = append(retabled, planned{op: AlterModelTable{Name: model, Table: m.Table}})
		}
		if !setsEqual(old.UniqueTogether, m.UniqueTogether) {
			var deps []dependency
			for _, set := range m.UniqueTogether {
				for _, name := range set {
					if f := m.Field(name); f != nil {
						deps = append(deps, targetDeps(f, tables)...)
					}
				}
			}
			together = append(together, planned{op: AlterUniqueTogether{Model: model, UniqueTogether: cloneSets(m.UniqueTogether)}, deps: deps})
		}
	}
	ops = slices.Concat(ops, removedC, removedIx, removed, added, altered, together, addedIx, addedC, alteredC, retabled)
	if level == compat.DRF314 {
		return optimize(level, sortByDependencies(ops), tables), nil
	}
	return optimize(level, staticOrder(ops), tables), nil
}

// planned is an operation the autodetector generated, with what it
// depends on within the app.
type planned struct {
	op   Operation
	deps []dependency
}

// dependency is one of Django's autodetector dependencies within the app:
// the creation of a model (field "") or of one of its fields, the removal
// or alteration of a field, or a change of a model's unique_together.
type dependency struct {
	model, field string
	on           dependencyKind
}

// dependencyKind is what a dependency waits for.
type dependencyKind int

const (
	onCreated dependencyKind = iota
	onRemoved
	onAltered
	onTogether
)

// satisfiedBy is Django's check_dependency.
func (d dependency) satisfiedBy(op Operation) bool {
	switch o := op.(type) {
	case CreateModel:
		return d.on == onCreated && lower(o.Name) == d.model &&
			(d.field == "" || slices.ContainsFunc(o.Fields, func(f models.Field) bool { return f.Name == d.field }))
	case AddField:
		return d.on == onCreated && d.field != "" && o.Model == d.model && o.Field.Name == d.field
	case RemoveField:
		return d.on == onRemoved && o.Model == d.model && o.Name == d.field
	case AlterField:
		return d.on == onAltered && o.Model == d.model && o.Field.Name == d.field
	case AlterUniqueTogether:
		return d.on == onTogether && o.Model == d.model
	}
	return false
}

// deleteOperations adds the operations of a deleted model as Django's
// generate_deleted_models does: its unique_together emptied, its
// relations removed, then DeleteModel, after the relations of the app's
// other models to it are removed or altered.
func deleteOperations(ops []planned, from *State, m *ModelState) []planned {
	model := lower(m.Name)
	if len(m.UniqueTogether) > 0 {
		ops = append(ops, planned{op: AlterUniqueTogether{Model: model}})
	}
	var deps []dependency
	for _, name := range sortedNames(m.Fields) {
		if m.Field(name).Related != nil {
			ops = append(ops, planned{op: RemoveField{Model: model, Name: name}})
			deps = append(deps, dependency{model: model, field: name, on: onRemoved})
		}
	}
	for _, other := range from.Models {
		for _, f := range other.Fields {
			if other != m && f.Related != nil && f.Related.Table == m.Table {
				deps = append(deps, dependency{model: lower(other.Name), field: f.Name, on: onRemoved},
					dependency{model: lower(other.Name), field: f.Name, on: onAltered})
			}
		}
	}
	return append(ops, planned{op: DeleteModel{Name: m.Name}, deps: deps})
}

// targetDeps is a relation's dependency on its target, when the target
// is a model of the app.
func targetDeps(f *models.Field, tables map[string]string) []dependency {
	if f.Related == nil {
		return nil
	}
	if m, ok := tables[f.Related.Table]; ok {
		return []dependency{{model: m}}
	}
	return nil
}

// createOperations adds the operations of a new model as Django's
// generate_created_models does: CreateModel (at the beginning of the
// list) with the fields but the relations, an AddField for each relation
// by name, AddIndex for each index, AlterUniqueTogether.
func createOperations(ops []planned, m *ModelState, tables map[string]string) []planned {
	model := lower(m.Name)
	c := CreateModel{Name: m.Name, Table: m.Table}
	var related []models.Field
	for _, f := range m.Fields {
		if f.Related != nil {
			related = append(related, cloneField(f))
		} else {
			c.Fields = append(c.Fields, cloneField(f))
		}
	}
	ops = slices.Insert(ops, 0, planned{op: c})
	slices.SortStableFunc(related, func(a, b models.Field) int { return strings.Compare(a.Name, b.Name) })
	relatedDeps := []dependency{{model: model}}
	for _, f := range related {
		deps := append([]dependency{{model: model}}, targetDeps(&f, tables)...)
		ops = append(ops, planned{op: AddField{Model: model, Field: f}, deps: deps})
		relatedDeps = append(relatedDeps, dependency{model: model, field: f.Name})
	}
	for _, ix := range m.Indexes {
		ops = append(ops, planned{op: AddIndex{Model: model, Index: Index{Name: ix.Name, Fields: slices.Clone(ix.Fields)}}, deps: relatedDeps})
	}
	for _, c := range m.Constraints {
		ops = append(ops, planned{op: AddConstraint{Model: model, Constraint: cloneConstraint(c)}, deps: relatedDeps})
	}
	if len(m.UniqueTogether) > 0 {
		ops = append(ops, planned{op: AlterUniqueTogether{Model: model, UniqueTogether: cloneSets(m.UniqueTogether)}, deps: relatedDeps})
	}
	return ops
}

// sortByDependencies is Django's _sort_migrations: a stable topological
// sort, layer by layer, of the operations by their dependencies.
func sortByDependencies(ops []planned) []Operation {
	after := make([][]int, len(ops))
	for i, p := range ops {
		for _, d := range p.deps {
			for j, q := range ops {
				if j != i && d.satisfiedBy(q.op) {
					after[i] = append(after[i], j)
				}
			}
		}
	}
	var out []Operation
	done := make([]bool, len(ops))
	for len(out) < len(ops) {
		var layer []int
		for i := range ops {
			if !done[i] && !slices.ContainsFunc(after[i], func(j int) bool { return !done[j] }) {
				layer = append(layer, i)
			}
		}
		if len(layer) == 0 { // a cycle, which Django refuses: keep the order
			for i := range ops {
				if !done[i] {
					layer = append(layer, i)
				}
			}
		}
		for _, i := range layer {
			done[i] = true
			out = append(out, ops[i].op)
		}
	}
	return out
}

// staticOrder is Django 5.2's _sort_migrations: graphlib's
// TopologicalSorter of the operations by their dependencies, each added
// with the operations it depends on (which enter the graph then, when
// they are new), and read in its static_order: the operations without
// predecessors in the order they entered, then each one's successors as
// they become ready.
func staticOrder(ops []planned) []Operation {
	var order []int
	seen := make([]bool, len(ops))
	enter := func(i int) {
		if !seen[i] {
			seen[i] = true
			order = append(order, i)
		}
	}
	successors := make([][]int, len(ops))
	waiting := make([]int, len(ops))
	for i, p := range ops {
		enter(i)
		for _, d := range p.deps {
			for j, q := range ops {
				if j != i && d.satisfiedBy(q.op) {
					enter(j)
					successors[j] = append(successors[j], i)
					waiting[i]++
				}
			}
		}
	}
	var ready []int
	for _, i := range order {
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	out := make([]Operation, 0, len(ops))
	for len(ready) > 0 {
		group := ready
		ready = nil
		for _, i := range group {
			out = append(out, ops[i].op)
		}
		for _, i := range group {
			for _, s := range successors[i] {
				if waiting[s]--; waiting[s] == 0 {
					ready = append(ready, s)
				}
			}
		}
	}
	if len(out) < len(ops) { // a cycle, which Django refuses: keep the order
		return sortByDependencies(ops)
	}
	return out
}

// deconstructed is f as Django's deconstruct() compares it: a relation
// without the kind of its target's key, which the foreign key's column
// follows (an altered primary key alters no field of the models that
// point to it, in its app or another), and to its target's table as
// retables renames it (old to new).
func deconstructed(f models.Field, retables map[string]string) models.Field {
	if f.Related != nil {
		r := *f.Related
		r.Kind = ""
		if t, ok := retables[r.Table]; ok {
			r.Table = t
		}
		f.Related = &r
	}
	return f
}

func sortedNames(fs []models.Field) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	slices.Sort(names)
	return names
}

func indexEqual(a, b Index) bool { return a.Name == b.Name && slices.Equal(a.Fields, b.Fields) }

func setsEqual(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, s := range a {
		if !containsSet(b, s) {
			return false
		}
	}
	return true
}

// Name is the name level's Django gives the migration of ops after the
// app's last migration (number last, "" when none): "0001_initial" for
// the first. Otherwise, on Django 3.2, the one operation's fragment
// ("0002_snippet_title", "0002_remove_snippet_code",
// "0002_alter_snippet_title"), the created models' names when all create
// one, or "0002_auto_YYYYMMDD_HHMM" at now; on Django 5.2, the
// operations' fragments in order while they fit in 52 characters, then
// "_and_more" ("0002_snippet_title_remove_snippet_code"), or the auto
// name when one has no fragment.
func Name(level compat.Level, last string, ops []Operation, now time.Time) string {
	if last == "" {
		return "0001_initial"
	}
	n, _ := strconv.Atoi(strings.SplitN(last, "_", 2)[0])
	prefix := fmt.Sprintf("%04d_", n+1)
	auto := prefix + "auto_" + now.Format("20060102_1504")
	if level == compat.Current {
		name := ""
		for i, op := range ops {
			f := op.fragment()
			switch {
			case f == "":
				return auto
			case i == 0:
				name = f
			case len(name)+1+len(f) > 52:
				return prefix + cut(name+"_and_more", 100)
			default:
				name += "_" + f
			}
		}
		return prefix + cut(name, 100)
	}
	if len(ops) == 1 {
		return prefix + cut(ops[0].fragment(), 100)
	}
	var frags []string
	for _, op := range ops {
		if _, ok := op.(CreateModel); !ok {
			frags = nil
			break
		}
		frags = append(frags, op.fragment())
	}
	if len(frags) > 1 {
		slices.Sort(frags)
		return prefix + cut(strings.Join(frags, "_"), 100)
	}
	return auto
}

// MakeMigration is MakeMigrationAt the current level, Django 5.2's.
func (a *App) MakeMigration(name string, now time.Time) (*Migration, error) {
	return a.MakeMigrationAt(compat.Current, name, now)
}

// MakeMigrationAt is the migration the makemigrations of level's Django
// writes for the app: the changes from its migrations' state to its
// models (Changes), named as Django
// names it (name, when not "", replaces the part after the number); nil
// when nothing changed.
func (a *App) MakeMigrationAt(level compat.Level, name string, now time.Time) (*Migration, error) {
	state, err := a.StateBefore("")
	if err != nil {
		return nil, err
	}
	current, err := a.Current()
	if err != nil {
		return nil, err
	}
	ops, err := changes(level, state, current, a.otherTables())
	if err != nil || len(ops) == 0 {
		return nil, err
	}
	last := ""
	if ms := a.Migrations(); len(ms) > 0 {
		last = ms[len(ms)-1].Name
	}
	full := Name(level, last, ops, now)
	if name != "" {
		full = full[:5] + name
	}
	return &Migration{App: a.Label, Name: full, Dependencies: a.dependencies(ops), Operations: ops}, nil
}

// otherTables maps each table a model of another registered app had in
// that app's migrations to the model's table now: a foreign key to
// either names the same model, as Django's deconstructs its model and
// not its table, so a table renamed in another app alters no field of
// this one, before or after that app's AlterModelTable.
func (a *App) otherTables() map[string]string {
	registered.Lock()
	apps := slices.Clone(registered.apps)
	registered.Unlock()
	out := map[string]string{}
	for _, o := range apps {
		if o.Label == a.Label {
			continue
		}
		had := map[string][]string{} // by model, in lower case
		s := &State{App: o.Label}
	replay:
		for _, m := range o.Migrations() {
			for _, op := range m.Operations {
				if r, ok := op.(RenameModel); ok {
					had[lower(r.NewName)] = had[lower(r.OldName)]
				}
				if op.apply(s) != nil {
					break replay // that app's own makemigrations says why
				}
				for _, ms := range s.Models {
					if k := lower(ms.Name); !slices.Contains(had[k], ms.Table) {
						had[k] = append(had[k], ms.Table)
					}
				}
			}
		}
		for _, t := range o.Models {
			d, err := models.Describe(t)
			if err != nil {
				continue
			}
			for _, old := range had[lower(d.Meta.Name)] {
				if old != d.Meta.Table {
					out[old] = d.Meta.Table
				}
			}
		}
	}
	return out
}

// dependencies are the Dependencies Django's makemigrations gives a
// migration of ops: for each relation they add or alter to a model of
// another app (NewApp's), that app's last migration, or its first for
// auth_user (Django's swappable_dependency of AUTH_USER_MODEL); in
// order. An app without migrations is depended on by none.
func (a *App) dependencies(ops []Operation) [][2]string {
	owners := map[string]*App{}
	registered.Lock()
	apps := slices.Clone(registered.apps)
	registered.Unlock()
	for _, o := range apps {
		if o.Label == a.Label {
			continue
		}
		for _, t := range o.Models {
			if d, err := models.Describe(t); err == nil {
				owners[d.Meta.Table] = o
			}
		}
	}
	var deps [][2]string
	depend := func(f models.Field) {
		if f.Related == nil {
			return
		}
		o := owners[f.Related.Table]
		if o == nil {
			return
		}
		ms := o.Migrations()
		if len(ms) == 0 {
			return
		}
		d := [2]string{o.Label, ms[len(ms)-1].Name}
		if f.Related.Table == "auth_user" {
			d[1] = ms[0].Name
		}
		if !slices.Contains(deps, d) {
			deps = append(deps, d)
		}
	}
	for _, op := range ops {
		switch o := op.(type) {
		case CreateModel:
			for _, f := range o.Fields {
				depend(f)
			}
		case AddField:
			depend(o.Field)
		case AlterField:
			depend(o.Field)
		}
	}
	slices.SortFunc(deps, func(x, y [2]string) int { return strings.Compare(x[0]+"\x00"+x[1], y[0]+"\x00"+y[1]) })
	return deps
}
