package migrations_test

import "testing"

// TestFieldOptionsAsDjango changes the options Django's migrations record
// without a schema change of their own (testdata/snippets/options*.py):
// limit_choices_to on a foreign key and on a many-to-many field, and a
// GenericIPAddressField's protocol, made IPv4 on one field and back to
// both on another. makemigrations finds Django's AlterFields, sqlmigrate
// prints Django's SQL (none for limit_choices_to; SQLite's remake for a
// protocol, as Django's _field_should_be_altered has it; Django 5.2's
// "(no-op)" on PostgreSQL), and the Go migrations apply, at both levels.
func TestFieldOptionsAsDjango(t *testing.T) {
	steps := []djangoStep{{"options1", "initial", "0001"}, {"options2", "options", "0002"}}
	migrateStepsAsDjango(t, steps, "0002_options")
}
