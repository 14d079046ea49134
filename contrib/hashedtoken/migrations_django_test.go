package hashedtoken_test

import (
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/hashedtoken"
	"github.com/go-drf/drf/contrib/internal/djangomigrations"
)

// tokenModel is the Token model as Django declares it.
const tokenModel = `from django.conf import settings
from django.db import models


class Token(models.Model):
    id = models.BigAutoField(primary_key=True)
    name = models.CharField(max_length=64, blank=True)
    token_key = models.CharField(max_length=8, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    expiry = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
`

// TestMigrationsAsDjango holds the app's migrations to those Django's
// makemigrations writes for the same model, under Django 3.2 and 5.2:
// sqlmigrate's SQL on SQLite and PostgreSQL, and the table Django's
// migrate leaves on SQLite.
func TestMigrationsAsDjango(t *testing.T) {
	djangomigrations.SameAsDjangoModels(t, auth.Migrations, hashedtoken.App, tokenModel,
		"django.contrib.contenttypes", "django.contrib.auth")
}
