package auth

import (
	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/framework/models"
)

// Group is Django's django.contrib.auth.models.Group on its auth_group
// table: a name that permissions and users are grouped under.
type Group struct {
	// ID is the primary key.
	ID int32 `db:"id" json:"id"`
	// Name is unique.
	Name string `db:"name" json:"name" model:"max_length=150,unique"`
	// Permissions are the keys of the group's permissions (Django's
	// ManyToManyField to Permission, through auth_group_permissions).
	Permissions []int32 `json:"permissions,omitempty" model:"many_to_many=auth_permission,blank"`
}

// Meta declares Django's Group model.
func (Group) Meta() models.Meta { return models.Meta{App: "auth"} }

// Permission is Django's django.contrib.auth.models.Permission on its
// auth_permission table: one codename of one content type
// ("add_book" of books.book).
type Permission struct {
	// ID is the primary key.
	ID int32 `db:"id" json:"id"`
	// Name is the permission's name for people ("Can add book").
	Name string `db:"name" json:"name" model:"max_length=255"`
	// ContentTypeID is the django_content_type row of the model.
	ContentTypeID int32 `db:"content_type_id" json:"content_type" model:"foreign_key=django_content_type,on_delete=cascade"`
	// Codename is the permission's code ("add_book"), unique per content
	// type.
	Codename string `db:"codename" json:"codename" model:"max_length=100"`
	// ContentType is the content type, when the permission was read
	// with it (SelectRelated("content_type")).
	ContentType *contenttypes.ContentType `db:"-" json:"-" drf:"source=content_type"`
}

// Meta declares Django's Permission model. Django orders permissions by
// content_type__app_label, content_type__model and codename, through the
// related content type, which an ordering of the model cannot name; they
// are ordered by the content type's key and the codename, which groups
// them as Django does, the content types in the order they were created.
func (Permission) Meta() models.Meta {
	return models.Meta{App: "auth", UniqueTogether: [][]string{{"content_type", "codename"}},
		Ordering: []string{"content_type", "codename"}}
}
