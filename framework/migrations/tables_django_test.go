package migrations_test

import "testing"

// TestAlterModelTableAsDjango changes models' db_table
// (testdata/snippets/tables*.py): a model with a foreign key and a
// many-to-many field to another, then both tables renamed and a field
// altered. makemigrations finds Django's AlterField and AlterModelTable
// operations (the relations to the renamed table unchanged, as Django's
// fields name their model), sqlmigrate prints Django's SQL (the tables
// renamed, the automatic many-to-many table too) on SQLite and
// PostgreSQL, and the Go migrations apply, at both levels.
func TestAlterModelTableAsDjango(t *testing.T) {
	steps := []djangoStep{{"tables1", "initial", "0001"}, {"tables2", "tables", "0002"}}
	migrateStepsAsDjango(t, steps, "0002_tables")
}
