package migrations_test

import "testing"

// TestChoicesAsDjango changes fields' choices (testdata/snippets/choices*.py):
// a choice added to a string field and an integer field's choices
// removed. makemigrations finds Django's two AlterFields; sqlmigrate
// prints Django's SQL: Django 3.2 remakes SQLite's table for them,
// Django 5.2 counts choices among its non_db_attrs and writes none, and
// the Go migrations apply, at both levels.
func TestChoicesAsDjango(t *testing.T) {
	steps := []djangoStep{{"choices1", "initial", "0001"}, {"choices2", "choices", "0002"}}
	migrateStepsAsDjango(t, steps, "0002_choices")
}
