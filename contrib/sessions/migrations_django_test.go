package sessions_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/internal/djangomigrations"
	"github.com/go-drf/drf/contrib/sessions"
)

// TestMigrationsAsDjango holds the sessions app's migration to Django's
// own: sqlmigrate's SQL on SQLite and PostgreSQL under Django 3.2 and 5.2.
func TestMigrationsAsDjango(t *testing.T) {
	djangomigrations.SameAsDjango(t, sessions.App, "django.contrib.sessions")
}
