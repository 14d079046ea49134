// Package contenttypes is Django's django.contrib.contenttypes: the
// ContentType model, one row of django_content_type per model of the
// project. contrib/auth's migrations create the table and its
// permissions refer to it.
package contenttypes

import "github.com/go-drf/drf/framework/models"

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
