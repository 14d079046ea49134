package migrations_test

import (
	"testing"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/store"
)

// TestRenameRefused: a rename that cannot be made fails the migration
// with a message naming it: an unknown field or model, a name taken, a
// many-to-many field, a model with one or the target of one.
func TestRenameRefused(t *testing.T) {
	initial := migrations.Migration{App: "blog", Name: "0001_initial", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Tag", Table: "blog_tag", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
		}},
		migrations.CreateModel{Name: "Post", Table: "blog_post", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
			{Name: "title", Column: "title", Kind: models.CharField, MaxLength: 50},
			{Name: "tags", Kind: models.ManyToManyField, Related: &models.Relation{Table: "blog_tag", Column: "id"}},
		}},
		migrations.CreateModel{Name: "Note", Table: "blog_note", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
		}},
	}}
	_, state, err := initial.SQL(compat.DRF314, store.SQLite, &migrations.State{App: "blog"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		op   migrations.Operation
		want string
	}{
		{migrations.RenameField{Model: "post", OldName: "body", NewName: "text"}, "blog.0002: migrations: RenameField post.body: no such field"},
		{migrations.RenameField{Model: "post", OldName: "title", NewName: "id"}, "blog.0002: migrations: RenameField post.title: the model has a field id"},
		{migrations.RenameField{Model: "post", OldName: "tags", NewName: "labels"}, "blog.0002: migrations: RenameField post.tags: a many-to-many field cannot be renamed"},
		{migrations.RenameField{Model: "page", OldName: "title", NewName: "name"}, `blog.0002: migrations: app "blog" has no model "page"`},
		{migrations.RenameModel{OldName: "Post", NewName: "Note"}, "blog.0002: migrations: RenameModel Post: the app has a model Note"},
		{migrations.RenameModel{OldName: "Post", NewName: "Article"}, "blog.0002: migrations: RenameModel Post: the many-to-many field Post.tags cannot follow a renamed model"},
		{migrations.RenameModel{OldName: "Tag", NewName: "Label"}, "blog.0002: migrations: RenameModel Tag: the many-to-many field Post.tags cannot follow a renamed model"},
	} {
		m := migrations.Migration{App: "blog", Name: "0002", Operations: []migrations.Operation{c.op}}
		if _, _, err := m.SQL(compat.DRF314, store.SQLite, state); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.op.Describe(), err, c.want)
		}
	}
	// A column named otherwise than its field keeps its name; so does a
	// table named otherwise than its model.
	m := migrations.Migration{App: "blog", Name: "0002", Operations: []migrations.Operation{
		migrations.CreateModel{Name: "Page", Table: "pages", Fields: []models.Field{
			{Name: "id", Column: "id", Kind: models.AutoField, PrimaryKey: true},
			{Name: "title", Column: "heading", Kind: models.CharField, MaxLength: 50},
		}},
		migrations.RenameField{Model: "page", OldName: "title", NewName: "name"},
		migrations.RenameModel{OldName: "Page", NewName: "Sheet"},
	}}
	lines, after, err := m.SQL(compat.DRF314, store.PostgreSQL, state)
	if err != nil {
		t.Fatal(err)
	}
	got := migrations.SQLMigrate(lines)
	want := "BEGIN;\n--\n-- Create model Page\n--\n" +
		`CREATE TABLE "pages" ("id" serial NOT NULL PRIMARY KEY, "heading" varchar(50) NOT NULL);` + "\n" +
		"--\n-- Rename field title on page to name\n--\n--\n-- Rename model Page to Sheet\n--\nCOMMIT;\n"
	if got != want {
		t.Errorf("sqlmigrate printed\n%s\nwant\n%s", got, want)
	}
	if s := after.Model("sheet"); s == nil || s.Table != "pages" || s.Field("name") == nil || s.Field("name").Column != "heading" {
		t.Errorf("the state has %+v, want Sheet on pages with name on heading", s)
	}
}
