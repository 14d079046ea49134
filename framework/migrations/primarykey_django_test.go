package migrations_test

import "testing"

// TestPrimaryKeyChangeAsDjango makes a unique field the primary key in
// place of the automatic one (testdata/snippets/pk*.py). makemigrations
// finds Django's RemoveField and AlterField, sqlmigrate prints Django's
// SQL on SQLite and PostgreSQL, and the Go migrations apply, at both
// levels.
func TestPrimaryKeyChangeAsDjango(t *testing.T) {
	steps := []djangoStep{{"pk1", "initial", "0001"}, {"pk2", "key", "0002"}}
	migrateStepsAsDjango(t, steps, "0002_key")
}
