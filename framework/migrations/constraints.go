package migrations

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/models"
)

// AddConstraint creates one of Meta.constraints.
type AddConstraint struct {
	// Model is the model's name in lower case.
	Model string
	// Constraint is the constraint, with its name.
	Constraint models.Constraint
}

// Describe returns "Create constraint NAME on model MODEL".
func (o AddConstraint) Describe() string {
	return "Create constraint " + o.Constraint.Name + " on model " + lower(o.Model)
}

func (o AddConstraint) fragment() string { return lower(o.Model) + "_" + lower(o.Constraint.Name) }

func (o AddConstraint) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	if m.constraint(o.Constraint.Name) >= 0 {
		return fmt.Errorf("migrations: AddConstraint %s: the model has a constraint %s", o.Model, o.Constraint.Name)
	}
	m.Constraints = append(m.Constraints, cloneConstraint(o.Constraint))
	return nil
}

func (AddConstraint) renders() bool { return true }

// database is Django's add_constraint: SQLite remakes the table but for
// a partial unique index.
func (o AddConstraint) database(e *editor, _, to *State) error {
	m, err := to.model(o.Model)
	if err != nil {
		return err
	}
	switch c := o.Constraint; {
	case c.NullsNotDistinct && !e.pg():
		// Django's _unique_supported: SQLite has no NULLS NOT DISTINCT,
		// the table is remade without the constraint.
		e.remake(m, nil, "", nil)
	case len(c.Condition) > 0 || c.NullsNotDistinct:
		e.exec(e.partialUnique(m, c).render(m.Table))
	case !e.pg():
		e.remake(m, nil, "", nil)
	default:
		e.exec("ALTER TABLE " + quoteName(m.Table) + " ADD " + e.constraintSQL(m, c))
	}
	return nil
}

// RemoveConstraint drops one of Meta.constraints.
type RemoveConstraint struct {
	// Model is the model's name in lower case.
	Model string
	// Name is the constraint's name.
	Name string
}

// Describe returns "Remove constraint NAME from model MODEL".
func (o RemoveConstraint) Describe() string {
	return "Remove constraint " + o.Name + " from model " + lower(o.Model)
}

func (o RemoveConstraint) fragment() string { return "remove_" + lower(o.Model) + "_" + lower(o.Name) }

func (o RemoveConstraint) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	i := m.constraint(o.Name)
	if i < 0 {
		return fmt.Errorf("migrations: RemoveConstraint %s: no constraint %s", o.Model, o.Name)
	}
	m.Constraints = slices.Delete(m.Constraints, i, i+1)
	return nil
}

func (RemoveConstraint) renders() bool { return true }

// database is Django's remove_constraint: SQLite remakes the table but
// for a partial unique index.
func (o RemoveConstraint) database(e *editor, from, to *State) error {
	old, err := from.model(o.Model)
	if err != nil {
		return err
	}
	m, err := to.model(o.Model)
	if err != nil {
		return err
	}
	c := old.Constraints[old.constraint(o.Name)]
	switch {
	case c.NullsNotDistinct && !e.pg():
		e.remake(m, nil, "", nil)
	case len(c.Condition) > 0:
		e.dropIndex(c.Name)
	case !e.pg():
		e.remake(m, nil, "", nil)
	default:
		e.exec("ALTER TABLE " + quoteName(m.Table) + " DROP CONSTRAINT " + quoteName(c.Name))
	}
	return nil
}

// AlterConstraint changes what Django keeps of one of Meta.constraints
// outside the database, its violation_error_message: Django 5.2's
// AlterConstraint, which runs no SQL. makemigrations writes it at
// compat.Current; Django 3.2 has no such message and finds no change.
type AlterConstraint struct {
	// Model is the model's name in lower case.
	Model string
	// Name is the constraint's name.
	Name string
	// Constraint is the constraint as it becomes.
	Constraint models.Constraint
}

// Describe returns "Alter constraint NAME on MODEL".
func (o AlterConstraint) Describe() string {
	return "Alter constraint " + o.Name + " on " + lower(o.Model)
}

func (o AlterConstraint) fragment() string {
	return "alter_" + lower(o.Model) + "_" + lower(o.Constraint.Name)
}

func (o AlterConstraint) apply(s *State) error {
	m, err := s.model(o.Model)
	if err != nil {
		return err
	}
	i := m.constraint(o.Name)
	if i < 0 {
		return fmt.Errorf("migrations: AlterConstraint %s: no constraint %s", o.Model, o.Name)
	}
	m.Constraints[i] = cloneConstraint(o.Constraint)
	return nil
}

func (AlterConstraint) renders() bool { return false }

func (AlterConstraint) database(*editor, *State, *State) error { return nil }

// constraint is the index of the model's constraint of that name, -1
// for none.
func (m *ModelState) constraint(name string) int {
	return slices.IndexFunc(m.Constraints, func(c models.Constraint) bool { return c.Name == name })
}

func cloneConstraint(c models.Constraint) models.Constraint {
	c.Fields = slices.Clone(c.Fields)
	c.Condition = cloneQ(c.Condition)
	c.Check = cloneQ(c.Check)
	return c
}

func cloneQ(q models.Q) models.Q {
	if q == nil {
		return nil
	}
	c := make(models.Q, len(q))
	for k, v := range q {
		c[k] = v
	}
	return c
}

// constraintsEqual is Django's == of constraints at level: the
// violation_error_message counts on Django 5.2 only (Django 3.2 has
// none).
func constraintsEqual(level compat.Level, a, b models.Constraint) bool {
	return sameInDatabase(a, b) && (level == compat.DRF314 || a.ViolationErrorMessage == b.ViolationErrorMessage)
}

// sameInDatabase reports constraints equal but for Django's non_db_attrs
// (violation_error_message): what makes a change an AlterConstraint
// rather than a RemoveConstraint and an AddConstraint.
func sameInDatabase(a, b models.Constraint) bool {
	return a.Name == b.Name && slices.Equal(a.Fields, b.Fields) && qEqual(a.Condition, b.Condition) && qEqual(a.Check, b.Check) &&
		a.NullsNotDistinct == b.NullsNotDistinct
}

// nullsDistinct314 refuses a UniqueConstraint of nulls_distinct=False at
// DRF 3.14's level: Django 3.2 has no such option.
func nullsDistinct314(level compat.Level, s *State) error {
	if level != compat.DRF314 {
		return nil
	}
	for _, m := range s.Models {
		for _, c := range m.Constraints {
			if c.NullsNotDistinct {
				return fmt.Errorf("model %s: constraint %s: Django 3.2 has no UniqueConstraint(nulls_distinct=False) (Django 5.0 and later)", m.Name, c.Name)
			}
		}
	}
	return nil
}

func qEqual(a, b models.Q) bool { return slices.Equal(a.Lookups(), b.Lookups()) }

// constraintSQL is Django's constraint_sql: "CONSTRAINT name UNIQUE
// (columns)" or "CONSTRAINT name CHECK (condition)".
func (e *editor) constraintSQL(m *ModelState, c models.Constraint) string {
	if c.Unique() {
		return "CONSTRAINT " + quoteName(c.Name) + " UNIQUE (" + quoteColumns(m.columns(c.Fields)) + ")"
	}
	return "CONSTRAINT " + quoteName(c.Name) + " CHECK (" + e.where(m, c.Check) + ")"
}

// partialUnique is Django's _create_unique_sql of a UniqueConstraint with
// a condition, a unique index of the rows it matches, or of
// nulls_distinct=False, NULLS NOT DISTINCT (PostgreSQL 15 and later): an
// index with a condition, else a constraint.
func (e *editor) partialUnique(m *ModelState, c models.Constraint) *deferred {
	cols := m.columns(c.Fields)
	nulls := ""
	if c.NullsNotDistinct {
		nulls = " NULLS NOT DISTINCT"
	}
	if len(c.Condition) == 0 {
		return &deferred{table: m.Table, columns: cols, render: func(table string) string {
			return "ALTER TABLE " + quoteName(table) + " ADD CONSTRAINT " + quoteName(c.Name) + " UNIQUE" + nulls + " (" + quoteColumns(cols) + ")"
		}}
	}
	where := e.where(m, c.Condition)
	return &deferred{table: m.Table, columns: cols, render: func(table string) string {
		return "CREATE UNIQUE INDEX " + quoteName(c.Name) + " ON " + quoteName(table) + " (" + quoteColumns(cols) + ")" + nulls + " WHERE " + where
	}}
}

// where is Django's SQL of a Q on the model's table, its values quoted
// as sqlmigrate quotes them: one lookup alone, several between
// parentheses, joined by AND; a boolean's exact lookup is the column or
// NOT the column.
func (e *editor) where(m *ModelState, q models.Q) string {
	var terms []string
	for _, l := range q.Lookups() {
		f := m.Field(l.Field)
		col := quoteName(f.Column)
		if l.Lookup == "isnull" {
			if v := strings.ToLower(l.Value); v == "true" || v == "1" {
				terms = append(terms, col+" IS NULL")
			} else {
				terms = append(terms, col+" IS NOT NULL")
			}
			continue
		}
		if f.Kind == models.BooleanField && l.Lookup == "exact" {
			// Django's Exact of a boolean: the column, or NOT it.
			if b, err := strconv.ParseBool(l.Value); err == nil {
				if !b {
					col = "NOT " + col
				}
				terms = append(terms, col)
				continue
			}
		}
		terms = append(terms, col+" "+l.Operator()+" "+e.quoteValue(f, l.Value))
	}
	if len(terms) == 1 {
		return terms[0]
	}
	return "(" + strings.Join(terms, " AND ") + ")"
}
