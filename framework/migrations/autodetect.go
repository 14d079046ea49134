package migrations

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-drf/drf/framework/models"
)

// Changes are the operations that bring the state from to the models to,
// in the order Django 3.2's autodetector and optimizer give them: deleted
// models, created models (a foreign key's target first; each with its
// fields, the relations last, then its indexes and, when it has indexes,
// its unique_together), then for the models kept, removed indexes,
// removed, added and altered fields, unique_together and added indexes.
// A renamed field is a removal and an addition, as Django's
// non-interactive makemigrations has it.
func Changes(from *State, to []*ModelState) ([]Operation, error) {
	var ops []Operation
	var deleted []string
	for _, m := range from.Models {
		if !slices.ContainsFunc(to, func(n *ModelState) bool { return strings.EqualFold(n.Name, m.Name) }) {
			deleted = append(deleted, m.Name)
		}
	}
	slices.SortFunc(deleted, func(a, b string) int { return strings.Compare(lower(a), lower(b)) })
	for _, name := range deleted {
		ops = append(ops, DeleteModel{Name: name})
	}
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
	for _, m := range dependencyOrder(created) {
		ops = append(ops, createOperations(m)...)
	}
	var removedIx, removed, added, altered, together, addedIx []Operation
	for _, m := range kept {
		old := from.Model(m.Name)
		model := lower(m.Name)
		for _, ix := range old.Indexes {
			if !slices.ContainsFunc(m.Indexes, func(n Index) bool { return indexEqual(n, ix) }) {
				removedIx = append(removedIx, RemoveIndex{Model: model, Name: ix.Name})
			}
		}
		for _, ix := range m.Indexes {
			if !slices.ContainsFunc(old.Indexes, func(o Index) bool { return indexEqual(o, ix) }) {
				addedIx = append(addedIx, AddIndex{Model: model, Index: ix})
			}
		}
		for _, name := range sortedNames(old.Fields) {
			if m.Field(name) == nil {
				removed = append(removed, RemoveField{Model: model, Name: name})
			}
		}
		for _, name := range sortedNames(m.Fields) {
			f := m.Field(name)
			switch of := old.Field(name); {
			case of == nil:
				if !(f.Null || f.HasDefault || f.Blank && emptyStringsAllowed(f.Kind)) {
					return nil, fmt.Errorf("You are trying to add a non-nullable field '%s' to %s without a default; "+
						"we can't do that (the database needs something to populate existing rows): "+
						"give it a default (model:\"default=...\") or make it nullable", name, model)
				}
				added = append(added, AddField{Model: model, Field: f.clone()})
			case !fieldsEqual(*of, *f):
				altered = append(altered, AlterField{Model: model, Field: f.clone()})
			}
		}
		if !setsEqual(old.UniqueTogether, m.UniqueTogether) {
			together = append(together, AlterUniqueTogether{Model: model, UniqueTogether: cloneSets(m.UniqueTogether)})
		}
	}
	return slices.Concat(ops, removedIx, removed, added, altered, together, addedIx), nil
}

// createOperations are the operations of a new model: CreateModel with
// the fields (the relations last, by name, as Django's optimizer folds
// their AddField into it), AddIndex for each index, and unique_together in
// CreateModel unless an index comes between.
func createOperations(m *ModelState) []Operation {
	c := CreateModel{Name: m.Name, Table: m.Table}
	var related []Field
	for _, f := range m.Fields {
		if f.Related != nil {
			related = append(related, f.clone())
		} else {
			c.Fields = append(c.Fields, f.clone())
		}
	}
	slices.SortStableFunc(related, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	c.Fields = append(c.Fields, related...)
	ops := []Operation{nil}
	for _, ix := range m.Indexes {
		ops = append(ops, AddIndex{Model: lower(m.Name), Index: Index{Name: ix.Name, Fields: slices.Clone(ix.Fields)}})
	}
	if len(m.UniqueTogether) > 0 {
		if len(m.Indexes) == 0 {
			c.UniqueTogether = cloneSets(m.UniqueTogether)
		} else {
			ops = append(ops, AlterUniqueTogether{Model: lower(m.Name), UniqueTogether: cloneSets(m.UniqueTogether)})
		}
	}
	ops[0] = c
	return ops
}

// dependencyOrder puts a model after the new models its foreign keys
// point to, keeping the order otherwise.
func dependencyOrder(ms []*ModelState) []*ModelState {
	var out []*ModelState
	done := map[*ModelState]bool{}
	var visit func(m *ModelState, seen map[*ModelState]bool)
	visit = func(m *ModelState, seen map[*ModelState]bool) {
		if done[m] || seen[m] {
			return
		}
		seen[m] = true
		for _, f := range m.Fields {
			if f.Related == nil {
				continue
			}
			for _, t := range ms {
				if t != m && t.Table == f.Related.Table {
					visit(t, seen)
				}
			}
		}
		done[m] = true
		out = append(out, m)
	}
	for _, m := range ms {
		visit(m, map[*ModelState]bool{})
	}
	return out
}

func sortedNames(fs []Field) []string {
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

// Name is the name Django 3.2 gives the migration of ops after the
// app's last migration (number last, "" when none): "0001_initial" for
// the first; otherwise the one operation's fragment ("0002_snippet_title",
// "0002_remove_snippet_code", "0002_alter_snippet_title"), the created
// models' names when all create one, or "0002_auto_YYYYMMDD_HHMM" at now.
func Name(last string, ops []Operation, now time.Time) string {
	if last == "" {
		return "0001_initial"
	}
	n, _ := strconv.Atoi(strings.SplitN(last, "_", 2)[0])
	prefix := fmt.Sprintf("%04d_", n+1)
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
	return prefix + "auto_" + now.Format("20060102_1504")
}

// kindOf is the Kind's constant name in package models.
func kindOf(k models.Kind) string { return "models." + string(k) }

// MakeMigration is the migration makemigrations writes for the app: the
// changes from its migrations' state to its models, named as Django
// names it (name, when not "", replaces the part after the number); nil
// when nothing changed.
func (a *App) MakeMigration(name string, now time.Time) (*Migration, error) {
	state, err := a.StateBefore("")
	if err != nil {
		return nil, err
	}
	current, err := a.Current()
	if err != nil {
		return nil, err
	}
	ops, err := Changes(state, current)
	if err != nil || len(ops) == 0 {
		return nil, err
	}
	last := ""
	if ms := a.Migrations(); len(ms) > 0 {
		last = ms[len(ms)-1].Name
	}
	full := Name(last, ops, now)
	if name != "" {
		full = full[:5] + name
	}
	return &Migration{App: a.Label, Name: full, Operations: ops}, nil
}
