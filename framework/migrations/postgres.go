package migrations

import (
	"fmt"

	"github.com/go-drf/drf/framework/models"
)

// CreateExtension is django.contrib.postgres' CreateExtension: it
// installs a PostgreSQL extension (CREATE EXTENSION IF NOT EXISTS) and
// does nothing on another database. It leaves the models' state alone.
// HStoreExtension is the one an HStoreField needs, in a migration before
// the model's.
type CreateExtension struct {
	// Name is the extension's name ("hstore").
	Name string
}

// HStoreExtension is Django's HStoreExtension(): the hstore extension,
// the type of an HStoreField's column.
func HStoreExtension() CreateExtension { return CreateExtension{Name: "hstore"} }

// Describe returns "Creates extension NAME".
func (o CreateExtension) Describe() string { return "Creates extension " + o.Name }

func (o CreateExtension) fragment() string { return "create_extension_" + o.Name }

func (CreateExtension) apply(*State) error { return nil }

func (CreateExtension) renders() bool { return false }

func (o CreateExtension) database(e *editor, _, _ *State) error {
	if e.pg() {
		e.exec("CREATE EXTENSION IF NOT EXISTS " + quoteName(o.Name))
	}
	return nil
}

// postgresOnly refuses, on another database than PostgreSQL, a state of
// a field only PostgreSQL holds (an ArrayField or an HStoreField),
// naming the model and the field.
func (e *editor) postgresOnly(s *State) error {
	if e.pg() {
		return nil
	}
	for _, m := range s.Models {
		for _, f := range m.Fields {
			if f.Kind == models.ArrayField || f.Kind == models.HStoreField {
				return fmt.Errorf("migrations: %s.%s is an %s, which only PostgreSQL holds (django.contrib.postgres), not SQLite",
					m.Name, f.Name, f.Kind)
			}
		}
	}
	return nil
}
