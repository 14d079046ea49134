package migrations_test

import "testing"

// TestFileFieldsAsDjango declares a FileField and an ImageField in Go and
// in Django (testdata/snippets/files*.py): a model created with them
// (varchar(100)), then a max_length changed and a blank FileField added
// (its column's empty DEFAULT), then an upload_to changed and the image's
// width_field and height_field added (AlterFields of no column change,
// which SQLite's remake still runs, as Django's, and Django 5.2's
// sqlmigrate marks "(no-op)" on PostgreSQL); makemigrations finds
// Django's operations, sqlmigrate prints Django's SQL on SQLite and
// PostgreSQL, and the Go migrations apply, at both levels.
func TestFileFieldsAsDjango(t *testing.T) {
	steps := []djangoStep{{"files1", "initial", "0001"}, {"files2", "longer", "0002"}, {"files3", "sizes", "0003"}}
	migrateStepsAsDjango(t, steps, "0003_sizes")
}
