package generics_test

import (
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// Author is a model that Prize protects.
type Author struct {
	ID   int    `db:"id" json:"id"`
	Name string `db:"name" json:"name" model:"max_length=50"`
}

func (Author) Meta() models.Meta { return models.Meta{App: "prizes"} }

// Prize keeps its author from being deleted.
type Prize struct {
	ID       int `db:"id" json:"id"`
	AuthorID int `db:"author_id" json:"author" model:"foreign_key=prizes_author,on_delete=protect"`
}

func (Prize) Meta() models.Meta { return models.Meta{App: "prizes"} }

// TestProtectedDelete: deleting a row that a PROTECT foreign key
// references answers 409 with Django's ProtectedError message and
// deletes nothing; once the reference is gone, the delete is 204.
func TestProtectedDelete(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		app := migrations.NewApp("prizes", Author{}, Prize{})
		app.Dir = t.TempDir()
		m, err := app.MakeMigration("", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		app.Add(*m)
		migs := app.Migrations()
		if _, err := migrations.Migrate(t.Context(), db, migs...); err != nil {
			t.Fatal(err)
		}
		authors := queryset.MustSQL[Author](db, queryset.SQLConfig{})
		prizes := queryset.MustSQL[Prize](db, queryset.SQLConfig{})
		if err := authors.Insert(t.Context(), &Author{Name: "ann"}); err != nil {
			t.Fatal(err)
		}
		prize := &Prize{AuthorID: 1}
		if err := prizes.Insert(t.Context(), prize); err != nil {
			t.Fatal(err)
		}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/authors/{pk}/", generics.RetrieveDestroyAPIView(generics.GenericAPIView[Author]{Source: authors, Serializer: serializers.MustNew[Author]()}))
		c := apitest.New(t, api)
		if r := c.Do("DELETE", "/authors/1/", ""); r.Status != 409 ||
			r.Body != `{"detail":"Cannot delete some instances of model 'Author' because they are referenced through protected foreign keys: 'Prize.author'."}` {
			t.Errorf("DELETE a protected author: %d %s", r.Status, r.Body)
		}
		if r := c.Get("/authors/1/"); r.Status != 200 {
			t.Errorf("the protected author is gone: %d %s", r.Status, r.Body)
		}
		if err := prizes.Delete(t.Context(), prize); err != nil {
			t.Fatal(err)
		}
		if r := c.Do("DELETE", "/authors/1/", ""); r.Status != 204 {
			t.Errorf("DELETE an author no longer protected: %d %s", r.Status, r.Body)
		}
	})
}
