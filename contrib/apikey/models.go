package apikey

import (
	"github.com/go-drf/drf/contrib/internal/djangoapps"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// Meta declares the package's APIKey model, ordered newest first.
func (APIKey) Meta() models.Meta {
	return models.Meta{App: "rest_framework_api_key", Ordering: []string{"-created"},
		VerboseName: "API key", VerboseNamePlural: "API keys"}
}

// The columns of rest_framework_api_key_apikey as its migrations add them.
var (
	idField = models.Field{Name: "id", Column: "id", Kind: models.CharField, PrimaryKey: true, MaxLength: 100}
	// hashedKey and prefix are added null, filled from the id by the
	// package's Python code, then made NOT NULL.
	hashedKey = models.Field{Name: "hashed_key", Column: "hashed_key", Kind: models.CharField, MaxLength: 100}
	prefix    = models.Field{Name: "prefix", Column: "prefix", Kind: models.CharField, MaxLength: 8, Unique: true}
)

// nullable returns f with null=True.
func nullable(f models.Field) models.Field {
	f.Null = true
	return f
}

// App is djangorestframework-api-key's app: the APIKey model and the
// package's migrations, for the migrate, makemigrations and sqlmigrate
// commands. Their operations that run no SQL (help texts, editable=False)
// have none here. The Python code of 0004_prefix_hashed_key, which fills
// the new columns of the keys that exist, is not run: a database holding
// keys at 0003 is migrated past it by Django.
var App = djangoapps.With(migrations.NewApp("rest_framework_api_key", APIKey{}),
	migrations.Migration{
		Name: "0001_initial",
		Operations: []migrations.Operation{
			migrations.CreateModel{
				Name:  "APIKey",
				Table: "rest_framework_api_key_apikey",
				Fields: []models.Field{
					idField,
					{Name: "created", Column: "created", Kind: models.DateTimeField, Blank: true, DBIndex: true},
					{Name: "name", Column: "name", Kind: models.CharField, MaxLength: 50},
					{Name: "revoked", Column: "revoked", Kind: models.BooleanField, Blank: true, HasDefault: true, Default: "false"},
				},
			},
		},
	},
	migrations.Migration{
		Name: "0002_auto_20190529_2243",
		Operations: []migrations.Operation{
			migrations.AddField{Model: "apikey", Field: models.Field{Name: "expiry_date", Column: "expiry_date",
				Kind: models.DateTimeField, Null: true, Blank: true}},
		},
	},
	migrations.Migration{Name: "0003_auto_20190623_1952"},
	migrations.Migration{
		Name: "0004_prefix_hashed_key",
		Operations: []migrations.Operation{
			migrations.AddField{Model: "apikey", Field: nullable(hashedKey)},
			migrations.AddField{Model: "apikey", Field: nullable(prefix)},
			migrations.AlterField{Model: "apikey", Field: hashedKey},
			migrations.AlterField{Model: "apikey", Field: prefix},
		},
	},
)

// Migrations create rest_framework_api_key_apikey exactly as the
// package's migrations do on SQLite and on PostgreSQL (App's
// migrations), recorded under its names, so that a database Django
// migrated is recognised.
var Migrations = djangoapps.Migrations(App)
