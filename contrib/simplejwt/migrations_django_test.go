package simplejwt_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/internal/djangomigrations"
	"github.com/go-drf/drf/contrib/simplejwt"
)

// TestMigrationsAsDjango holds the token_blacklist app's migrations to
// simplejwt's own, 5.2's under Django 3.2 and 5.5's under Django 5.2:
// sqlmigrate's SQL on SQLite and PostgreSQL (the automatic ids made
// BigAutoFields, with their sequence and the foreign key to them), and
// the tables Django's migrate leaves on SQLite; the models need no
// migration more.
func TestMigrationsAsDjango(t *testing.T) {
	djangomigrations.SameAsDjangoAfter(t, auth.Migrations, simplejwt.App,
		"django.contrib.contenttypes", "django.contrib.auth", "rest_framework_simplejwt.token_blacklist")
}
