package migrations_test

import (
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// TestConstraintsAsDjango declares Meta.constraints in Go and in Django
// (testdata/snippets/constraints*.py): a model created with a
// UniqueConstraint (over a foreign key), a CheckConstraint and a partial
// UniqueConstraint (its unique index WHERE the condition holds), then a
// check replaced by one of two lookups, the partial one's condition
// changed and a UniqueConstraint added (Django's RemoveConstraint and
// AddConstraint, SQLite's table remade); makemigrations finds Django's
// operations, sqlmigrate prints Django's SQL on SQLite and PostgreSQL,
// and the Go migrations apply.
func TestConstraintsAsDjango(t *testing.T) {
	steps := []djangoStep{{"constraints1", "initial", "0001"}, {"constraints2", "changes", "0002"}}
	migrateStepsAsDjango(t, steps, "0002_changes")
}

// TestViolationErrorMessageAsDjango changes a UniqueConstraint's
// violation_error_message (testdata/snippets/violation*.py; Django 4.1
// and later): a model created with a message on one constraint, then
// that message changed and the other constraint given one. Django 5.2's
// makemigrations writes an AlterConstraint for each, which sqlmigrate
// prints as "(no-op)" on SQLite and PostgreSQL, and so does the Go
// program; the migration file carries the messages (makemigrations then
// finds nothing). Django 3.2 has no such message: at its level the
// change is none.
func TestViolationErrorMessageAsDjango(t *testing.T) {
	old := &migrations.ModelState{Name: "Snippet", Table: "snippets_snippet", Constraints: []models.Constraint{
		{Name: "unique_code", Fields: []string{"code"}, ViolationErrorMessage: "Taken."}}}
	new := &migrations.ModelState{Name: "Snippet", Table: "snippets_snippet", Constraints: []models.Constraint{
		{Name: "unique_code", Fields: []string{"code"}, ViolationErrorMessage: "Code taken."}}}
	if ops, err := migrations.Changes(compat.DRF314, &migrations.State{App: "snippets", Models: []*migrations.ModelState{old}},
		[]*migrations.ModelState{new}); err != nil || len(ops) != 0 {
		t.Errorf("at DRF 3.14's level a message changed is %v, %v; want no operation", ops, err)
	}
	dj := djangos[1]
	t.Run(dj.name, func(t *testing.T) {
		djangoAt(t, dj)
		steps := []djangoStep{{"violation1", "initial", "0001"}, {"violation2", "messages", "0002"}}
		migrateStepsAs(t, dj, steps, "0002_messages")
	})
}
