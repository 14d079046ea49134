package migrations_test

import "testing"

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
