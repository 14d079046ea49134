package migrations_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// nndEntry is testdata/nulls_distinct.py's Entry: a UniqueConstraint of
// nulls_distinct=False.
type nndEntry struct {
	ID       int     `db:"id"`
	Name     string  `db:"name" model:"max_length=100"`
	Code     *string `db:"code" model:"max_length=100"`
	Category *string `db:"category" model:"max_length=100"`
}

func (nndEntry) Meta() models.Meta {
	return models.Meta{App: "snippets", Name: "Entry", Constraints: []models.Constraint{
		{Name: "entry_code_category_nnd", Fields: []string{"code", "category"}, NullsNotDistinct: true},
	}}
}

// TestNullsDistinctAsDjango: a UniqueConstraint of nulls_distinct=False
// is created as Django 5.2's schema editor creates it
// (testdata/nulls_distinct.py): on PostgreSQL 15 and later by ALTER
// TABLE ... UNIQUE NULLS NOT DISTINCT after the table (with the model, or
// added to it), which then refuses a second row of the same nulls; on
// SQLite, which Django finds unable to, not at all. At DRF 3.14's level
// (Django 3.2, which has no nulls_distinct) the migration is an error
// naming the model.
func TestNullsDistinctAsDjango(t *testing.T) {
	d, err := models.Of[nndEntry]()
	if err != nil {
		t.Fatal(err)
	}
	empty := &migrations.State{App: "snippets"}
	ops, err := migrations.Changes(compat.Current, empty, []*migrations.ModelState{migrations.FromDescription(d, nil)})
	if err != nil {
		t.Fatal(err)
	}
	create := migrations.Migration{App: "snippets", Name: "0001_initial", Operations: ops}
	if _, _, err := create.SQL(compat.DRF314, store.SQLite, empty); err == nil ||
		!strings.Contains(err.Error(), "model Entry: constraint entry_code_category_nnd: Django 3.2 has no UniqueConstraint(nulls_distinct=False)") {
		t.Errorf("at DRF 3.14's level: %v", err)
	}
	// The model without the constraint, then AddConstraint.
	bare := migrations.FromDescription(d, nil)
	constraint := bare.Constraints[0]
	bare.Constraints = nil
	first, err := migrations.Changes(compat.Current, empty, []*migrations.ModelState{bare})
	if err != nil {
		t.Fatal(err)
	}
	_, withoutIt, err := migrations.Migration{App: "snippets", Name: "0001_initial", Operations: first}.SQL(compat.Current, store.PostgreSQL, empty)
	if err != nil {
		t.Fatal(err)
	}
	add := migrations.Migration{App: "snippets", Name: "0002_add", Operations: []migrations.Operation{migrations.AddConstraint{Model: "entry", Constraint: constraint}}}

	for _, dialect := range []store.Dialect{store.SQLite, store.PostgreSQL} {
		name, dsn := "sqlite", ""
		if dialect == store.PostgreSQL {
			name, dsn = "postgresql", testservers.Postgres(t)
		}
		t.Run(name, func(t *testing.T) {
			var want struct {
				Supported bool     `json:"supported"`
				Create    []string `json:"create"`
				Add       []string `json:"add"`
			}
			if err := json.Unmarshal(runDjangoAt(t, compat.Current, "nulls_distinct.py", name, dsn), &want); err != nil {
				t.Fatal(err)
			}
			got := executed(t, create, dialect, empty)
			sameStatements(t, "create", got, want.Create)
			if dialect != store.PostgreSQL {
				return
			}
			sameStatements(t, "add", executed(t, add, dialect, withoutIt), want.Add)
			db, err := store.Open(dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, stmt := range got {
				db.MustExec(stmt)
			}
			db.MustExec(`INSERT INTO "snippets_entry" ("name", "code", "category") VALUES ('first', NULL, NULL)`)
			_, err = db.ExecContext(context.Background(), `INSERT INTO "snippets_entry" ("name", "code", "category") VALUES ('second', NULL, NULL)`)
			if !store.IsUniqueViolation(err) {
				t.Errorf("a second row of the same nulls: %v, want a unique violation", err)
			}
		})
	}
}

// executed are the statements m runs from before on dialect at Django
// 5.2's level.
func executed(t *testing.T, m migrations.Migration, dialect store.Dialect, before *migrations.State) []string {
	t.Helper()
	lines, _, err := m.SQL(compat.Current, dialect, before)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range lines {
		out = append(out, l.Parts...)
	}
	return out
}
