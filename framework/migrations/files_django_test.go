package migrations_test

import (
	"os/exec"
	"testing"
)

// TestFileFieldsAsDjango declares a FileField and an ImageField in Go and
// in Django (testdata/snippets/files*.py): a model created with them
// (varchar(100)), then a max_length changed and a blank FileField added
// (its column's empty DEFAULT); makemigrations finds Django's operations,
// sqlmigrate prints Django's SQL on SQLite and PostgreSQL, and the Go
// migrations apply.
func TestFileFieldsAsDjango(t *testing.T) {
	djangoPython(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the test program")
	}
	steps := []djangoStep{{"files1", "initial", "0001"}, {"files2", "longer", "0002"}}
	migrateStepsAsDjango(t, steps, "0002_longer")
}
