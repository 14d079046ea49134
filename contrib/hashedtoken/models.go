package hashedtoken

import (
	"github.com/go-drf/drf/contrib/internal/djangoapps"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// Meta declares the Token model on hashedtoken_token.
func (Token) Meta() models.Meta { return models.Meta{App: "hashedtoken"} }

// App is the hashedtoken app: the Token model and its migration, for the
// migrate, makemigrations and sqlmigrate commands.
var App = djangoapps.With(migrations.NewApp("hashedtoken", Token{}),
	migrations.Migration{
		Name: "0001_initial",
		Operations: []migrations.Operation{
			migrations.CreateModel{
				Name:  "Token",
				Table: "hashedtoken_token",
				Fields: []models.Field{
					{Name: "id", Column: "id", Kind: models.BigAutoField, PrimaryKey: true},
					{Name: "name", Column: "name", Kind: models.CharField, MaxLength: maxNameLength, Blank: true},
					{Name: "token_key", Column: "token_key", Kind: models.CharField, MaxLength: prefixLength},
					{Name: "digest", Column: "digest", Kind: models.CharField, MaxLength: 64, Unique: true},
					{Name: "created", Column: "created", Kind: models.DateTimeField, Blank: true},
					{Name: "expiry", Column: "expiry", Kind: models.DateTimeField, Null: true, Blank: true},
					{Name: "user", Column: "user_id", Kind: models.ForeignKey, DBIndex: true,
						Related: &models.Relation{Table: "auth_user", Column: "id", OnDelete: models.Cascade}},
				},
			},
		},
	},
)

// Migrations create hashedtoken_token as Django creates the table of the
// same model on SQLite and on PostgreSQL (App's migrations). They need
// auth.Migrations first.
var Migrations = djangoapps.Migrations(App)
