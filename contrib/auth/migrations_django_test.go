package auth_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/contrib/internal/djangomigrations"
)

// TestMigrationsAsDjango holds the auth app's migrations to Django 3.2's
// own: sqlmigrate's SQL on SQLite and PostgreSQL, and the tables
// Django's migrate leaves on SQLite, whose remakes move each altered
// column last (auth_user ends with first_name). Django 5.2's AutoField
// is an identity column on PostgreSQL, so the migrations are 3.2's.
func TestMigrationsAsDjango(t *testing.T) {
	djangomigrations.SameAsDjango32After(t, contenttypes.App.Migrations(), auth.App, "django.contrib.contenttypes", "django.contrib.auth")
}
