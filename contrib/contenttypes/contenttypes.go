// Package contenttypes is Django's django.contrib.contenttypes: the
// ContentType model, one row of django_content_type per model of the
// project, and Django's migrations of its table. contrib/auth's
// permissions refer to it, and auth.Migrations holds these migrations.
package contenttypes

import (
	"github.com/go-drf/drf/contrib/internal/djangoapps"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
)

// ContentType is Django's django.contrib.contenttypes.models.ContentType
// on its django_content_type table: a model, named by its app's label
// and its lower-case name.
type ContentType struct {
	// ID is the primary key.
	ID int32 `db:"id" json:"id"`
	// AppLabel is the model's app ("auth").
	AppLabel string `db:"app_label" json:"app_label" model:"max_length=100"`
	// Model is the model's name in lower case ("user").
	Model string `db:"model" json:"model" model:"max_length=100" drf:"label=Python model class name"`
}

// Meta declares Django's ContentType model.
func (ContentType) Meta() models.Meta {
	return models.Meta{App: "contenttypes", Table: "django_content_type",
		UniqueTogether: [][]string{{"app_label", "model"}}}
}

// App is Django's contenttypes app: the ContentType model and Django's
// migrations, for the migrate, makemigrations and sqlmigrate commands.
// 0002 drops the name column 0001 created; its change of the model's
// options and its Python code run no SQL.
var App = djangoapps.With(migrations.NewApp("contenttypes", ContentType{}),
	migrations.Migration{
		Name: "0001_initial",
		Operations: []migrations.Operation{
			migrations.CreateModel{
				Name:  "ContentType",
				Table: "django_content_type",
				Fields: []models.Field{
					{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
					{Name: "name", Column: "name", Kind: models.CharField, MaxLength: 100},
					{Name: "app_label", Column: "app_label", Kind: models.CharField, MaxLength: 100},
					{Name: "model", Column: "model", Kind: models.CharField, MaxLength: 100},
				},
			},
			migrations.AlterUniqueTogether{Model: "contenttype", UniqueTogether: [][]string{{"app_label", "model"}}},
		},
	},
	migrations.Migration{
		Name: "0002_remove_content_type_name",
		Operations: []migrations.Operation{
			migrations.AlterField{Model: "contenttype",
				Field: models.Field{Name: "name", Column: "name", Kind: models.CharField, MaxLength: 100, Null: true}},
			migrations.RemoveField{Model: "contenttype", Name: "name"},
		},
	},
)
