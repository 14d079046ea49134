package migrations

import (
	"fmt"
	"maps"
	"slices"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
)

// RenameField renames a field, and its column when the column is the one
// Django derives from the name ("title", or "owner_id" for the foreign
// key "owner"). makemigrations never writes it, as Django's does only
// when it asks and is told yes: a migration declares it, written by hand
// in the app's package (then makemigrations finds the models up to date).
// A many-to-many field cannot be renamed so.
type RenameField struct {
	// Model is the model's name in lower case.
	Model string
	// OldName and NewName are the field's names before and after.
	OldName, NewName string
}

// Describe returns "Rename field OLD on MODEL to NEW".
func (o RenameField) Describe() string {
	return "Rename field " + o.OldName + " on " + lower(o.Model) + " to " + o.NewName
}

func (o RenameField) fragment() string {
	return "rename_" + lower(o.OldName) + "_" + lower(o.Model) + "_" + lower(o.NewName)
}

func (o RenameField) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	f := m.Field(o.OldName)
	switch {
	case f == nil:
		return fmt.Errorf("migrations: RenameField %s.%s: no such field", o.Model, o.OldName)
	case f.Kind == models.ManyToManyField:
		return fmt.Errorf("migrations: RenameField %s.%s: a many-to-many field cannot be renamed", o.Model, o.OldName)
	case m.Field(o.NewName) != nil:
		return fmt.Errorf("migrations: RenameField %s.%s: the model has a field %s", o.Model, o.OldName, o.NewName)
	}
	// Django's state pops the field and adds it again: it becomes the
	// model's last, which orders a remade table's columns.
	i := m.fieldIndex(o.OldName)
	nf := m.Fields[i]
	if nf.Column == defaultColumn(&nf, nf.Name) {
		nf.Column = defaultColumn(&nf, o.NewName)
	}
	nf.Name = o.NewName
	m.Fields = append(slices.Delete(m.Fields, i, i+1), nf)
	for _, set := range m.UniqueTogether {
		renameIn(set, o.OldName, o.NewName)
	}
	for _, ix := range m.Indexes {
		renameIn(ix.Fields, o.OldName, o.NewName)
	}
	return nil
}

func (RenameField) renders() bool { return true }

func (o RenameField) database(e *editor, from, to *State) error {
	m, err := from.model(o.Model)
	if err != nil {
		return err
	}
	nm, err := to.model(o.Model)
	if err != nil {
		return err
	}
	e.alterField(m, m.Field(o.OldName), nm.Field(o.NewName), nil)
	return nil
}

// defaultColumn is the column Django derives from a field's name.
func defaultColumn(f *models.Field, name string) string {
	if f.Related != nil {
		return name + "_id"
	}
	return name
}

// renameIn renames old to new in names, "-old" to "-new".
func renameIn(names []string, old, new string) {
	for i, n := range names {
		switch n {
		case old:
			names[i] = new
		case "-" + old:
			names[i] = "-" + new
		}
	}
}

// RenameModel renames a model, and its table when the table is the one
// Django derives from the name ("app_model"); the foreign keys to it
// follow it. Like RenameField, a migration declares it. A model with
// many-to-many fields, or the target of one, cannot be renamed so.
type RenameModel struct {
	// OldName and NewName are the model's names before and after.
	OldName, NewName string
}

// Describe returns "Rename model OLD to NEW".
func (o RenameModel) Describe() string { return "Rename model " + o.OldName + " to " + o.NewName }

func (o RenameModel) fragment() string { return "rename_" + lower(o.OldName) + "_" + lower(o.NewName) }

func (o RenameModel) apply(s *State) error {
	m, err := s.model(o.OldName)
	if err != nil {
		return err
	}
	if n := s.Model(o.NewName); n != nil && n != m {
		return fmt.Errorf("migrations: RenameModel %s: the app has a model %s", o.OldName, o.NewName)
	}
	old := m.Table
	for _, x := range s.Models {
		for _, f := range x.Fields {
			if f.Kind == models.ManyToManyField && (x == m || f.Related.Table == old) {
				return fmt.Errorf("migrations: RenameModel %s: the many-to-many field %s.%s cannot follow a renamed model", o.OldName, x.Name, f.Name)
			}
		}
	}
	if m.Table == s.App+"_"+lower(m.Name) {
		m.Table = s.App + "_" + lower(o.NewName)
	}
	m.Name = o.NewName
	for _, x := range s.Models {
		for i := range x.Fields {
			if r := x.Fields[i].Related; r != nil && r.Table == old {
				r.Table = m.Table
			}
		}
	}
	return nil
}

func (RenameModel) renders() bool { return true }

// database is Django's RenameModel.database_forwards: the table renamed,
// then each foreign key to the model altered to point to the new table
// (in its place, on Django 5.2, where SQLite remakes the table).
func (o RenameModel) database(e *editor, from, to *State) error {
	m, err := from.model(o.OldName)
	if err != nil {
		return err
	}
	nm, err := to.model(o.NewName)
	if err != nil {
		return err
	}
	e.renameTable(m.Table, nm.Table)
	e.inPlace = e.level == compat.Current
	defer func() { e.inPlace = false }()
	for _, x := range from.Models {
		for i := range x.Fields {
			f := &x.Fields[i]
			if f.Related == nil || f.Related.Table != m.Table {
				continue
			}
			owner, nf := x, to.Model(x.Name)
			if x == m {
				owner, nf = nm, nm
			}
			e.alterField(owner, f, nf.Field(f.Name), nil)
		}
	}
	return nil
}

// renameTable is Django's alter_db_table: the table renamed, and the
// statements still deferred about it following it.
func (e *editor) renameTable(old, new string) {
	if old == new {
		return
	}
	e.exec("ALTER TABLE " + quoteName(old) + " RENAME TO " + quoteName(new))
	for _, d := range e.deferred {
		if d.table == old {
			d.table = new
		}
	}
}

// renameColumn is Django's _rename_field_sql.
func (e *editor) renameColumn(table string, old, new *models.Field) {
	e.exec("ALTER TABLE " + quoteName(table) + " RENAME COLUMN " + quoteName(old.Column) + " TO " + quoteName(new.Column))
}

// renamesOnly is SQLite's test for renaming a column rather than remake
// its table: the column's name changed, its definition (Django's
// column_sql: type, null, primary key, unique) did not, and neither
// field is a foreign key.
func (e *editor) renamesOnly(old, new *models.Field) bool {
	return old.Column != new.Column && old.Related == nil && new.Related == nil &&
		e.columnDefinition(old) == e.columnDefinition(new)
}

// columnDefinition is Django's column_sql without the default.
func (e *editor) columnDefinition(f *models.Field) string {
	sql := e.dbType(f)
	if f.Null {
		sql += " NULL"
	} else {
		sql += " NOT NULL"
	}
	if f.PrimaryKey {
		sql += " PRIMARY KEY"
	} else if f.Unique {
		sql += " UNIQUE"
	}
	return sql
}

// AlterModelTable renames a model's table (Django's db_table changed):
// the foreign keys to it and its automatic many-to-many tables follow,
// as they follow a RenameModel.
type AlterModelTable struct {
	// Name is the model's name in lower case.
	Name string
	// Table is the new table.
	Table string
}

// Describe returns "Rename table for MODEL to TABLE".
func (o AlterModelTable) Describe() string {
	return "Rename table for " + lower(o.Name) + " to " + o.Table
}

func (o AlterModelTable) fragment() string { return "alter_" + lower(o.Name) + "_table" }

func (o AlterModelTable) apply(s *State) error {
	m, err := s.model(o.Name)
	if err != nil {
		return err
	}
	if o.Table == "" {
		return fmt.Errorf("migrations: AlterModelTable %s: no table", o.Name)
	}
	s.retarget(m.Table, o.Table)
	m.Table = o.Table
	return nil
}

func (AlterModelTable) renders() bool { return true }

// database is Django's AlterModelTable.database_forwards: the table
// renamed, then its automatic many-to-many tables.
func (o AlterModelTable) database(e *editor, from, to *State) error {
	m, err := from.model(o.Name)
	if err != nil {
		return err
	}
	nm, err := to.model(o.Name)
	if err != nil {
		return err
	}
	e.renameTable(m.Table, nm.Table)
	for i := range m.Fields {
		if f := &m.Fields[i]; f.Kind == models.ManyToManyField && f.Through == "" {
			e.renameTable(m.through(f).Table, nm.through(nm.Field(f.Name)).Table)
		}
	}
	return nil
}

// retarget points the relations to table, of every app's models, to
// table renamed.
func (s *State) retarget(table, renamed string) {
	for _, st := range append([]*State{s}, slices.Collect(maps.Values(s.others))...) {
		for _, x := range st.Models {
			for i := range x.Fields {
				if r := x.Fields[i].Related; r != nil && r.Table == table {
					r.Table = renamed
				}
			}
		}
	}
}
