package authtoken_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/internal/djangomigrations"
)

// TestMigrationsAsDjango holds the authtoken app's migrations to DRF's
// own: sqlmigrate's SQL on SQLite and PostgreSQL under DRF 3.14 with
// Django 3.2 and DRF 3.18 with Django 5.2.
func TestMigrationsAsDjango(t *testing.T) {
	djangomigrations.SameAsDjango(t, authtoken.App,
		"django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "rest_framework.authtoken")
}
