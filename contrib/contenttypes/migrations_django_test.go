package contenttypes_test

import (
	"os"
	"testing"

	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/contrib/internal/djangomigrations"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// TestMigrationsAsDjango holds the contenttypes app's migrations to
// Django 3.2's own on SQLite and PostgreSQL. Django 5.2's differ: its
// AutoField is an identity column on PostgreSQL, and it drops 0002's name
// column with ALTER TABLE DROP COLUMN on SQLite where 3.2 remakes the
// table (which ends the same).
func TestMigrationsAsDjango(t *testing.T) {
	djangomigrations.SameAsDjango32(t, contenttypes.App, "django.contrib.contenttypes")
}
