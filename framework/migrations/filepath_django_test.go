package migrations_test

import "testing"

// TestFilePathFieldsAsDjango declares FilePathFields in Go and in Django
// (testdata/snippets/filepaths*.py): a model created with them
// (varchar(100)), then their path, match, recursive, allow_files and
// allow_folders changed (AlterFields of no column change: SQLite remakes
// the table, Django 5.2's sqlmigrate marks "(no-op)" on PostgreSQL) and
// a nullable one added, then a max_length changed (varchar(200));
// makemigrations finds Django's operations, sqlmigrate prints Django's
// SQL on SQLite and PostgreSQL, and the Go migrations apply, at both
// levels.
func TestFilePathFieldsAsDjango(t *testing.T) {
	steps := []djangoStep{{"filepaths1", "initial", "0001"}, {"filepaths2", "options", "0002"}, {"filepaths3", "longer", "0003"}}
	migrateStepsAsDjango(t, steps, "0003_longer")
}
