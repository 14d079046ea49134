package authtoken

import (
	"github.com/go-drf/drf/contrib/internal/djangoapps"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// Meta declares DRF's Token model on authtoken_token.
func (Token) Meta() models.Meta {
	return models.Meta{App: "authtoken", VerboseName: "Token", VerboseNamePlural: "Tokens"}
}

// App is DRF's authtoken app: the Token model and DRF's migrations, for
// the migrate, makemigrations and sqlmigrate commands. Only the first
// creates a table; DRF's later ones change the model's options and add
// the proxy model TokenProxy, which run no SQL.
var App = djangoapps.With(migrations.NewApp("authtoken", Token{}),
	migrations.Migration{
		Name: "0001_initial",
		Operations: []migrations.Operation{
			migrations.CreateModel{
				Name:  "Token",
				Table: "authtoken_token",
				Fields: []models.Field{
					{Name: "key", Column: "key", Kind: models.CharField, PrimaryKey: true, MaxLength: 40},
					{Name: "created", Column: "created", Kind: models.DateTimeField, Blank: true},
					{Name: "user", Column: "user_id", Kind: models.OneToOneField, Unique: true,
						Related: &models.Relation{Table: "auth_user", Column: "id", OnDelete: models.Cascade}},
				},
			},
		},
	},
	migrations.Migration{Name: "0002_auto_20160226_1747"},
	migrations.Migration{Name: "0003_tokenproxy"},
	migrations.Migration{Name: "0004_alter_tokenproxy_options"},
)

// Migrations create authtoken_token exactly as DRF's migrations do on
// SQLite and on PostgreSQL (App's migrations), recorded under DRF's
// names, so a database Django created is recognised. They need
// auth.Migrations first.
var Migrations = djangoapps.Migrations(App)
