package project_test

import (
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/hashedtoken"
	"github.com/go-drf/drf/contrib/project"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
)

// Folder is a model of an installed app that a view serves.
type Folder struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name" model:"max_length=100"`
}

// Meta places Folder in the memos app.
func (Folder) Meta() models.Meta { return models.Meta{App: "memos", Table: "memos_folder"} }

// Memo is a model of the same app that no view, source or serializer
// names: a row of a folder, deleted with it.
type Memo struct {
	ID       int64  `db:"id" json:"id"`
	Text     string `db:"text" json:"text" model:"max_length=100"`
	FolderID int64  `db:"folder_id" json:"-" model:"foreign_key=memos_folder,on_delete=cascade"`
}

// Meta places Memo in the memos app.
func (Memo) Meta() models.Meta { return models.Meta{App: "memos", Table: "memos_memo"} }

var memos = migrations.NewApp("memos", Folder{}, Memo{})

func init() {
	memos.Add(migrations.Migration{Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Folder", Table: "memos_folder", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
			{Name: "name", Column: "name", Kind: models.CharField, MaxLength: 100},
		}},
		migrations.CreateModel{Name: "Memo", Table: "memos_memo", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
			{Name: "text", Column: "text", Kind: models.CharField, MaxLength: 100},
			{Name: "folder", Column: "folder_id", Kind: models.ForeignKey, DBIndex: true,
				Related: &models.Relation{Table: "memos_folder", Column: "id", OnDelete: models.Cascade}},
		}},
	}})
}

// TestInstalledModelsCascade: deleting a row applies the on_delete of
// every installed app's foreign keys to it, as Django's Collector does
// with every model of INSTALLED_APPS, also those of a model that no
// view, source or serializer of the project names: a folder's memos go
// with the folder.
func TestInstalledModelsCascade(t *testing.T) {
	p := project.Project{SecretKey: "test-key", Apps: []*migrations.App{memos}, URLs: func(api *framework.API, db *sqlx.DB) error {
		api.Handle("/folders/{pk}/", generics.DestroyAPIView(generics.GenericAPIView[Folder]{
			View:       framework.View{Permissions: framework.Permissions(framework.AllowAny{})},
			Source:     queryset.MustSQL[Folder](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[Folder](),
		}))
		return nil
	}}
	c, db := serviceDB(t, &p)
	if _, err := db.Exec(`INSERT INTO memos_folder (name) VALUES ('shopping')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO memos_memo (text, folder_id) VALUES ('milk', 1), ('eggs', 1)`); err != nil {
		t.Fatal(err)
	}
	if r := c.Do("DELETE", "/folders/1/", ""); r.Status != 204 {
		t.Fatalf("DELETE /folders/1/: %d %s", r.Status, r.Body)
	}
	var n int
	if err := db.Get(&n, `SELECT COUNT(*) FROM memos_memo`); err != nil || n != 0 {
		t.Errorf("memos left: %d (%v), want 0", n, err)
	}
}

// TestUninstalledModelsAreNotFollowed: a delete follows the foreign keys
// of the installed apps only, as Django's Collector does: the tokens of
// authtoken and hashedtoken, described in the process (another service
// of it uses them) but not installed in this project, whose tables its
// database does not have, are not looked for when a user is deleted.
func TestUninstalledModelsAreNotFollowed(t *testing.T) {
	for _, describe := range []func() (*models.Description, error){models.Of[authtoken.Token], models.Of[hashedtoken.Token]} {
		if _, err := describe(); err != nil {
			t.Fatal(err)
		}
	}
	p := project.Project{SecretKey: "test-key", URLs: func(api *framework.API, db *sqlx.DB) error {
		api.Handle("/users/{pk}/", generics.DestroyAPIView(generics.GenericAPIView[auth.User]{
			View:       framework.View{Permissions: framework.Permissions(framework.AllowAny{})},
			Source:     queryset.MustSQL[auth.User](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[auth.User](),
		}))
		return nil
	}}
	c, db := serviceDB(t, &p)
	if r := c.Do("DELETE", "/users/1/", ""); r.Status != 204 {
		t.Fatalf("DELETE /users/1/: %d %s", r.Status, r.Body)
	}
	var n int
	if err := db.Get(&n, `SELECT COUNT(*) FROM auth_user`); err != nil || n != 0 {
		t.Errorf("users left: %d (%v), want 0", n, err)
	}
}
