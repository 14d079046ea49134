package migrations

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
)

// Operation is one step of a migration, as Django's migration operations:
// CreateModel, DeleteModel, AddField, RemoveField, AlterField, AddIndex,
// RemoveIndex, AlterUniqueTogether, AddConstraint, RemoveConstraint,
// AlterConstraint and AlterModelTable, which makemigrations writes, and RenameField, RenameModel, RunSQL and
// RunGo (Django's RunPython), which a migration written by hand declares.
type Operation interface {
	// Describe is Django's describe(): "Create model Snippet".
	Describe() string
	// fragment is Django's migration_name_fragment.
	fragment() string
	// apply changes the state as the operation changes the schema.
	apply(s *State) error
	// database writes the operation's SQL, from the state before it to
	// the state after it.
	database(e *editor, from, to *State) error
	// renders reports that Django's operation renders the models of the
	// state after it (its database_forwards reads to_state.apps).
	renders() bool
}

// CreateModel creates a model's table.
type CreateModel struct {
	// Name is the model's name ("Snippet").
	Name string
	// Table is its table.
	Table string
	// Fields are its fields in order.
	Fields []models.Field
	// UniqueTogether are its sets of fields unique together.
	UniqueTogether [][]string
	// Indexes are its Meta.indexes and Constraints its Meta.constraints,
	// which Django 5.2's optimizer folds into the CreateModel from the
	// AddIndex and AddConstraint after it.
	Indexes     []Index
	Constraints []models.Constraint
}

// Describe returns "Create model NAME".
func (o CreateModel) Describe() string { return "Create model " + o.Name }

func (o CreateModel) fragment() string { return lower(o.Name) }

func (o CreateModel) apply(s *State) error {
	if s.Model(o.Name) != nil {
		return fmt.Errorf("migrations: CreateModel %s: the model exists", o.Name)
	}
	for i := range o.Fields {
		if err := recordable("CreateModel", o.Name, &o.Fields[i]); err != nil {
			return err
		}
	}
	m := (&ModelState{Name: o.Name, Table: o.Table, Fields: o.Fields, UniqueTogether: o.UniqueTogether,
		Indexes: o.Indexes, Constraints: o.Constraints}).clone()
	s.Models = append(s.Models, m)
	return nil
}

func (CreateModel) renders() bool { return true }

func (o CreateModel) database(e *editor, _, to *State) error {
	m, err := to.model(o.Name)
	if err != nil {
		return err
	}
	e.createModel(m)
	return nil
}

// DeleteModel drops a model's table.
type DeleteModel struct {
	// Name is the model's name.
	Name string
}

// Describe returns "Delete model NAME".
func (o DeleteModel) Describe() string { return "Delete model " + o.Name }

func (o DeleteModel) fragment() string { return "delete_" + lower(o.Name) }

func (o DeleteModel) apply(s *State) error {
	m, err := s.model(o.Name)
	if err != nil {
		return err
	}
	s.Models = slices.DeleteFunc(s.Models, func(x *ModelState) bool { return x == m })
	return nil
}

func (DeleteModel) renders() bool { return false }

func (o DeleteModel) database(e *editor, from, _ *State) error {
	m, err := from.model(o.Name)
	if err != nil {
		return err
	}
	// Django's delete_model drops the automatic through tables first.
	for i := range m.Fields {
		if f := &m.Fields[i]; f.Kind == models.ManyToManyField && f.Through == "" {
			e.deleteModel(m.through(f).Table)
		}
	}
	e.deleteModel(m.Table)
	return nil
}

// AddField adds a column.
type AddField struct {
	// Model is the model's name in lower case ("snippet"), as Django writes it.
	Model string
	// Field is the new field.
	Field models.Field
}

// Describe returns "Add field NAME to MODEL".
func (o AddField) Describe() string { return "Add field " + o.Field.Name + " to " + lower(o.Model) }

func (o AddField) fragment() string { return lower(o.Model) + "_" + lower(o.Field.Name) }

func (o AddField) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	if m.Field(o.Field.Name) != nil {
		return fmt.Errorf("migrations: AddField %s.%s: the field exists", o.Model, o.Field.Name)
	}
	if err := recordable("AddField", o.Model, &o.Field); err != nil {
		return err
	}
	m.Fields = append(m.Fields, cloneField(o.Field))
	return nil
}

func (AddField) renders() bool { return true }

func (o AddField) database(e *editor, from, to *State) error {
	m, err := from.model(o.Model)
	if err != nil {
		return err
	}
	nm, err := to.model(o.Model)
	if err != nil {
		return err
	}
	e.addField(m, nm.Field(o.Field.Name))
	return nil
}

// RemoveField drops a column.
type RemoveField struct {
	// Model is the model's name in lower case.
	Model string
	// Name is the field's name.
	Name string
}

// Describe returns "Remove field NAME from MODEL".
func (o RemoveField) Describe() string { return "Remove field " + o.Name + " from " + lower(o.Model) }

func (o RemoveField) fragment() string { return "remove_" + lower(o.Model) + "_" + lower(o.Name) }

func (o RemoveField) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	i := m.fieldIndex(o.Name)
	if i < 0 {
		return fmt.Errorf("migrations: RemoveField %s.%s: no such field", o.Model, o.Name)
	}
	m.Fields = slices.Delete(m.Fields, i, i+1)
	return nil
}

func (RemoveField) renders() bool { return false }

func (o RemoveField) database(e *editor, from, _ *State) error {
	m, err := from.model(o.Model)
	if err != nil {
		return err
	}
	e.removeField(m, m.Field(o.Name))
	return nil
}

// AlterField changes a field: its type, length, null, default, unique,
// db_index or choices.
type AlterField struct {
	// Model is the model's name in lower case.
	Model string
	// Field is the field as it becomes; its Name says which one.
	Field models.Field
}

// Describe returns "Alter field NAME on MODEL".
func (o AlterField) Describe() string { return "Alter field " + o.Field.Name + " on " + lower(o.Model) }

func (o AlterField) fragment() string { return "alter_" + lower(o.Model) + "_" + lower(o.Field.Name) }

func (o AlterField) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	i := m.fieldIndex(o.Field.Name)
	if i < 0 {
		return fmt.Errorf("migrations: AlterField %s.%s: no such field", o.Model, o.Field.Name)
	}
	if err := recordable("AlterField", o.Model, &o.Field); err != nil {
		return err
	}
	old := m.Fields[i]
	m.Fields[i] = cloneField(o.Field)
	if o.Field.Kind != old.Kind {
		for _, r := range s.referrers(m.Table, old.Column) {
			r.field.Related.Kind = o.Field.Kind
		}
	}
	return nil
}

func (AlterField) renders() bool { return true }

func (o AlterField) database(e *editor, from, to *State) error {
	m, err := from.model(o.Model)
	if err != nil {
		return err
	}
	nm, err := to.model(o.Model)
	if err != nil {
		return err
	}
	e.alterField(m, m.Field(o.Field.Name), nm.Field(o.Field.Name), relatedTo(m, o.Field.Name, from, to))
	return nil
}

// AddIndex creates one of Meta.indexes.
type AddIndex struct {
	// Model is the model's name in lower case.
	Model string
	// Index is the index, with its name.
	Index Index
}

// Describe returns Django's "Create index NAME on field(s) A, B of model MODEL".
func (o AddIndex) Describe() string {
	return "Create index " + o.Index.Name + " on field(s) " + strings.Join(o.Index.Fields, ", ") + " of model " + lower(o.Model)
}

func (o AddIndex) fragment() string { return lower(o.Model) + "_" + lower(o.Index.Name) }

func (o AddIndex) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	m.Indexes = append(m.Indexes, Index{Name: o.Index.Name, Fields: slices.Clone(o.Index.Fields)})
	return nil
}

func (AddIndex) renders() bool { return true }

func (o AddIndex) database(e *editor, _, to *State) error {
	m, err := to.model(o.Model)
	if err != nil {
		return err
	}
	e.exec(e.index(m, o.Index).render(m.Table))
	return nil
}

// RemoveIndex drops one of Meta.indexes.
type RemoveIndex struct {
	// Model is the model's name in lower case.
	Model string
	// Name is the index's name.
	Name string
}

// Describe returns "Remove index NAME from MODEL".
func (o RemoveIndex) Describe() string { return "Remove index " + o.Name + " from " + lower(o.Model) }

func (o RemoveIndex) fragment() string { return "remove_" + lower(o.Model) + "_" + lower(o.Name) }

func (o RemoveIndex) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(m.Indexes, func(ix Index) bool { return ix.Name == o.Name })
	if i < 0 {
		return fmt.Errorf("migrations: RemoveIndex %s: no index %s", o.Model, o.Name)
	}
	m.Indexes = slices.Delete(m.Indexes, i, i+1)
	return nil
}

func (RemoveIndex) renders() bool { return false }

func (o RemoveIndex) database(e *editor, _, _ *State) error {
	e.dropIndex(o.Name)
	return nil
}

// AlterUniqueTogether sets a model's unique_together.
type AlterUniqueTogether struct {
	// Model is the model's name in lower case.
	Model string
	// UniqueTogether are the new sets.
	UniqueTogether [][]string
}

// Describe returns "Alter unique_together for MODEL (N constraint(s))".
func (o AlterUniqueTogether) Describe() string {
	return fmt.Sprintf("Alter unique_together for %s (%d constraint(s))", lower(o.Model), len(o.UniqueTogether))
}

func (o AlterUniqueTogether) fragment() string { return "alter_" + lower(o.Model) + "_unique_together" }

func (o AlterUniqueTogether) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	m.UniqueTogether = cloneSets(o.UniqueTogether)
	return nil
}

func (AlterUniqueTogether) renders() bool { return true }

func (o AlterUniqueTogether) database(e *editor, from, to *State) error {
	old, err := from.model(o.Model)
	if err != nil {
		return err
	}
	m, err := to.model(o.Model)
	if err != nil {
		return err
	}
	e.alterUniqueTogether(m, old.UniqueTogether, m.UniqueTogether)
	return nil
}

// FormattedDescription is the line makemigrations prints for op at
// level: "- Create model Snippet" on Django 3.2; on Django 5.2 the
// description after its category's symbol ("+" an addition, "-" a
// removal, "~" an alteration, "s" SQL, "p" Python).
func FormattedDescription(level compat.Level, op Operation) string {
	if level == compat.DRF314 {
		return "- " + op.Describe()
	}
	symbol := "~"
	switch op.(type) {
	case CreateModel, AddField, AddIndex, AddConstraint:
		symbol = "+"
	case DeleteModel, RemoveField, RemoveIndex, RemoveConstraint:
		symbol = "-"
	case RunSQL:
		symbol = "s"
	case RunGo:
		symbol = "p"
	}
	return symbol + " " + op.Describe()
}
