package apikey_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/apikey"
	"github.com/go-drf/drf/contrib/internal/djangomigrations"
)

// TestMigrationsAsDjango holds the app's migrations to
// djangorestframework-api-key 2.0's own: sqlmigrate's SQL on SQLite and
// PostgreSQL under Django 3.2. The Go app is api-key 2.0; the 5.2 level's
// api-key 3.1 adds 0005, which widens the id and hashed_key.
func TestMigrationsAsDjango(t *testing.T) {
	djangomigrations.SameAsDjango32(t, apikey.App, "rest_framework_api_key")
}
