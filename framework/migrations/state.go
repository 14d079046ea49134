package migrations

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/models"
)

// Index is an index of Meta.indexes, by field names.
type Index struct {
	// Name is the index's name (Django's automatic one when the model
	// gave none).
	Name string
	// Fields are the field names, "-name" for descending.
	Fields []string
}

// ModelState is a model as the migrations leave it: Django's ModelState.
type ModelState struct {
	// Name is the model's name, Django's class name ("Snippet").
	Name string
	// Table is its table.
	Table string
	// Fields are its fields in order.
	Fields []models.Field
	// UniqueTogether are the sets of field names unique together.
	UniqueTogether [][]string
	// Indexes are Meta.indexes.
	Indexes []Index
	// Constraints are Meta.constraints.
	Constraints []models.Constraint
}

// State is the models of an app, as its migrations leave them.
type State struct {
	// App is the app label.
	App string
	// Models are the app's models, in the order they were created.
	Models []*ModelState

	// others are the states of the project's other apps, by label, as
	// the migrations Migrate applied before leave them (Django's
	// ProjectState): their foreign keys to the app's models follow a
	// primary key altered to another type. Nil for the app alone, as
	// sqlmigrate sees a migration that depends on no other app.
	others map[string]*State
}

// Model returns the model of that name (any case), nil if none.
func (s *State) Model(name string) *ModelState {
	for _, m := range s.Models {
		if strings.EqualFold(m.Name, name) {
			return m
		}
	}
	return nil
}

func (s *State) model(name string) (*ModelState, error) {
	if m := s.Model(name); m != nil {
		return m, nil
	}
	return nil, fmt.Errorf("migrations: app %q has no model %q", s.App, name)
}

// Clone returns a deep copy of s.
func (s *State) Clone() *State {
	c := &State{App: s.App}
	for _, m := range s.Models {
		c.Models = append(c.Models, m.clone())
	}
	if s.others != nil {
		c.others = make(map[string]*State, len(s.others))
		for label, o := range s.others {
			c.others[label] = o.Clone()
		}
	}
	return c
}

func (m *ModelState) clone() *ModelState {
	c := *m
	c.Fields = slices.Clone(m.Fields)
	for i := range c.Fields {
		c.Fields[i] = cloneField(c.Fields[i])
	}
	c.UniqueTogether = cloneSets(m.UniqueTogether)
	c.Indexes = slices.Clone(m.Indexes)
	for i := range c.Indexes {
		c.Indexes[i].Fields = slices.Clone(c.Indexes[i].Fields)
	}
	c.Constraints = slices.Clone(m.Constraints)
	for i := range c.Constraints {
		c.Constraints[i] = cloneConstraint(c.Constraints[i])
	}
	return &c
}

// unrecorded names the first option set on f (or its Base) that a
// migration does not record, "" when there is none: the struct and the
// options a described model reads at run time (storage, validators, a
// default's function, auto_now, auto_now_add, unique_for_date and its
// kin, help_text, error messages, a relation's related_name). A
// migration written with one is refused when it is rendered, rather than
// the option dropped. Editable, which Describe sets on every field it
// does not turn off, is neither recorded nor refused.
func unrecorded(f *models.Field) string {
	opts := []struct {
		name string
		set  bool
	}{{"Struct", f.Struct != nil}, {"Storage", f.Storage != nil}, {"Validators", f.Validators != nil},
		{"DefaultFunc", f.DefaultFunc != nil}, {"AutoNow", f.AutoNow}, {"AutoNowAdd", f.AutoNowAdd},
		{"UniqueForDate", f.UniqueForDate != ""}, {"UniqueForMonth", f.UniqueForMonth != ""},
		{"UniqueForYear", f.UniqueForYear != ""}, {"HelpText", f.HelpText != ""}, {"ErrorMessages", f.ErrorMessages != nil},
		{"Related.RelatedName", f.Related != nil && f.Related.RelatedName != ""},
		{"Related.RelatedQueryName", f.Related != nil && f.Related.RelatedQueryName != ""}}
	for _, o := range opts {
		if o.set {
			return o.name
		}
	}
	if f.Base != nil {
		return unrecorded(f.Base)
	}
	return ""
}

// recordable returns the error of op's field f when it sets an option a
// migration does not record (unrecorded).
func recordable(op, model string, f *models.Field) error {
	if name := unrecorded(f); name != "" {
		return fmt.Errorf("migrations: %s %s.%s: a migration does not record %s, which the model's own field holds", op, model, f.Name, name)
	}
	return nil
}

// cloneField is f with its own copies of what it points to.
func cloneField(f models.Field) models.Field {
	f.Choices = slices.Clone(f.Choices)
	if f.Related != nil {
		r := *f.Related
		r.LimitChoicesTo = slices.Clone(r.LimitChoicesTo)
		f.Related = &r
	}
	if f.Base != nil {
		b := cloneField(*f.Base)
		f.Base = &b
	}
	if f.FilePath != nil {
		fp := *f.FilePath
		f.FilePath = &fp
	}
	return f
}

func cloneSets(sets [][]string) [][]string {
	if sets == nil {
		return nil
	}
	c := make([][]string, len(sets))
	for i, s := range sets {
		c[i] = slices.Clone(s)
	}
	return c
}

// Field returns the field of that name, nil if none.
func (m *ModelState) Field(name string) *models.Field {
	for i := range m.Fields {
		if m.Fields[i].Name == name {
			return &m.Fields[i]
		}
	}
	return nil
}

func (m *ModelState) fieldIndex(name string) int {
	return slices.IndexFunc(m.Fields, func(f models.Field) bool { return f.Name == name })
}

// columns are the columns of the named fields ("-name" keeps its "-").
func (m *ModelState) columns(names []string) []string {
	cols := make([]string, len(names))
	for i, n := range names {
		desc := strings.HasPrefix(n, "-")
		f := m.Field(strings.TrimPrefix(n, "-"))
		col := strings.TrimPrefix(n, "-")
		if f != nil {
			col = f.Column
		}
		if desc {
			col = "-" + col
		}
		cols[i] = col
	}
	return cols
}

// referrer is a field whose column refers to another's: Django's related
// object, of the model of app.
type referrer struct {
	app   string
	model *ModelState
	field *models.Field
}

// referrers are the fields with a column that refers to the column of
// table (Django's _related_non_m2m_objects): those of the other apps'
// models first, by app label, then those of s's models, each in the
// models' order, as Django's migrate finds them.
func (s *State) referrers(table, column string) []referrer {
	var out []referrer
	for _, label := range slices.Sorted(maps.Keys(s.others)) {
		out = append(out, s.others[label].ownReferrers(table, column)...)
	}
	return append(out, s.ownReferrers(table, column)...)
}

// ownReferrers are the referrers among s's models.
func (s *State) ownReferrers(table, column string) []referrer {
	var out []referrer
	for _, m := range s.Models {
		for i := range m.Fields {
			f := &m.Fields[i]
			if r := f.Related; r != nil && f.Kind != models.ManyToManyField && r.Table == table && r.Column == column {
				out = append(out, referrer{s.App, m, f})
			}
		}
	}
	return out
}

// appModel is the model of that name of the app of that label, s's or
// one of the others; nil if none.
func (s *State) appModel(app, name string) *ModelState {
	if app == s.App {
		return s.Model(name)
	}
	if o := s.others[app]; o != nil {
		return o.Model(name)
	}
	return nil
}

// withOthers is s beside the states of the project's other apps
// (project, by label, which may hold s's own).
func (s *State) withOthers(project map[string]*State) *State {
	c := *s
	c.others = map[string]*State{}
	for label, o := range project {
		if label != s.App {
			c.others[label] = o
		}
	}
	return &c
}

// split is the project's states after s: s's own, the others as s
// leaves them.
func (s *State) split(project map[string]*State) {
	for label, o := range s.others {
		project[label] = o
	}
	c := *s
	c.others = nil
	project[s.App] = &c
}

// lower is Django's model_name: the model's name in lower case.
func lower(name string) string { return strings.ToLower(name) }

// through is the model state of Django's automatic through table of f,
// a ManyToManyField of m: an automatic id (of m's key's kind when that
// is an auto key, else an AutoField) and a foreign key to each side,
// indexed and unique together.
func (m *ModelState) through(f *models.Field) *ModelState {
	var pk *models.Field
	for i := range m.Fields {
		if m.Fields[i].PrimaryKey {
			pk = &m.Fields[i]
		}
	}
	table, from, to := models.AutoThrough(m.Name, m.Table, f.Name, f.Related.Table)
	id := models.Field{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true}
	if auto(pk) {
		id.Kind = pk.Kind
	}
	fk := func(name string, r models.Relation) models.Field {
		return models.Field{Name: name, Column: name + "_id", Kind: models.ForeignKey, DBIndex: true, Related: &r}
	}
	return &ModelState{Name: m.Name + "_" + f.Name, Table: table, UniqueTogether: [][]string{{from, to}}, Fields: []models.Field{
		id, fk(from, models.Relation{Table: m.Table, Column: pk.Column, Kind: pk.Kind, OnDelete: models.Cascade}),
		fk(to, models.Relation{Table: f.Related.Table, Column: f.Related.Column, Kind: f.Related.Kind, OnDelete: models.Cascade}),
	}}
}

// FromDescription is the model state of a described model: what the
// autodetector compares with the migrations' state. refs gives the kind
// of the primary keys of other tables the model's foreign keys point to
// (by table); a table it lacks has an AutoField key.
func FromDescription(d *models.Description, refs map[string]models.Kind) *ModelState {
	m := &ModelState{Name: d.Meta.Name, Table: d.Meta.Table, UniqueTogether: cloneSets(d.Meta.UniqueTogether)}
	for _, f := range d.Fields {
		mf := models.Field{Name: f.Name, Column: f.Column, Kind: f.Kind, PrimaryKey: f.PrimaryKey, Null: f.Null,
			Blank: f.Blank, Unique: f.Unique && !f.PrimaryKey, DBIndex: f.DBIndex, MaxLength: f.MaxLength,
			MaxDigits: f.MaxDigits, DecimalPlaces: f.DecimalPlaces, Choices: slices.Clone(f.Choices),
			UploadTo: f.UploadTo, WidthField: f.WidthField, HeightField: f.HeightField}
		if f.Protocol != "both" {
			mf.Protocol = f.Protocol
		}
		if b := f.Base; b != nil {
			mf.Base = &models.Field{Name: b.Name, Kind: b.Kind, Null: b.Null, MaxLength: b.MaxLength}
			mf.Size = f.Size
		}
		if f.FilePath != nil {
			fp := *f.FilePath
			mf.FilePath = &fp
		}
		switch f.Kind {
		case models.OneToOneField:
			mf.Unique = true
		case models.ForeignKey:
			mf.DBIndex = true // Django's ForeignKey is db_index=True
		}
		if f.HasDefault && f.DefaultFunc == nil {
			mf.HasDefault, mf.Default = true, f.Default
		}
		if f.Related != nil {
			mf.Related = &models.Relation{Table: f.Related.Table, Column: f.Related.Column, Kind: refs[f.Related.Table], OnDelete: f.Related.OnDelete,
				LimitChoicesTo: slices.Clone(f.Related.LimitChoicesTo)}
		}
		m.Fields = append(m.Fields, mf)
	}
	for _, mm := range d.ManyToMany {
		if mm.Reverse {
			continue // Django's ManyToManyRel: the other side's field
		}
		mf := models.Field{Name: mm.Name, Kind: models.ManyToManyField, Blank: mm.Blank,
			Related: &models.Relation{Table: mm.Table, Column: mm.Column, Kind: refs[mm.Table], LimitChoicesTo: slices.Clone(mm.LimitChoicesTo)}}
		if !mm.AutoCreated {
			mf.Through = mm.Through
		}
		m.Fields = append(m.Fields, mf)
	}
	for _, ix := range d.Meta.Indexes {
		name := ix.Name
		if name == "" {
			name = autoIndexName(m.Table, m.columns(ix.Fields))
		}
		m.Indexes = append(m.Indexes, Index{Name: name, Fields: slices.Clone(ix.Fields)})
	}
	for _, c := range d.Meta.Constraints {
		m.Constraints = append(m.Constraints, cloneConstraint(c))
	}
	return m
}
