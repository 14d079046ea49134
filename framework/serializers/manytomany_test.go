package serializers_test

import (
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/querysettest"
)

// m2mPost has a many-to-many field to rel_tag, through Django's
// automatic table rel_post_tags.
type m2mPost struct {
	ID    int64   `db:"id" json:"id"`
	Title string  `db:"title" json:"title" model:"max_length=50"`
	Tags  []int64 `json:"tags" model:"many_to_many=rel_tag,related_name=posts,blank"`
}

func (m2mPost) Meta() models.Meta {
	return models.Meta{App: "rel", Name: "Post", Ordering: []string{"id"}}
}

// Through generic views, a many-to-many field is read with one query per
// page, written in the write's transaction, left alone by a PATCH that
// does not send it, and a key that names no row is DRF's 400.
func TestManyToManyViews(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if store.DialectOf(db) == store.PostgreSQL {
			id = "bigserial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "rel_tag" ("id" ` + id + `, "name" varchar(20) NOT NULL)`)
		db.MustExec(`CREATE TABLE "rel_post" ("id" ` + id + `, "title" varchar(50) NOT NULL)`)
		db.MustExec(`CREATE TABLE "rel_post_tags" ("id" ` + id + `, ` +
			`"post_id" bigint NOT NULL REFERENCES "rel_post" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
			`"tag_id" bigint NOT NULL REFERENCES "rel_tag" ("id") DEFERRABLE INITIALLY DEFERRED, UNIQUE ("post_id", "tag_id"))`)
		db.MustExec(`INSERT INTO "rel_tag" ("name") VALUES ('go'), ('sql'), ('web')`)
		g := generics.GenericAPIView[m2mPost]{Source: queryset.MustSQL[m2mPost](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[m2mPost]()}
		api := framework.NewAPI(nil, framework.Settings{Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
		api.Handle("/posts/", generics.ListCreateAPIView(g))
		api.Handle("/posts/{pk}/", generics.RetrieveUpdateDestroyAPIView(g))
		c := apitest.New(t, api)
		for _, body := range []string{`{"title":"one","tags":[3,1]}`, `{"title":"two","tags":[]}`, `{"title":"three","tags":[2]}`} {
			if r := c.Post("/posts/", body, "Content-Type: application/json"); r.Status != 201 {
				t.Fatalf("POST %s: %d %s", body, r.Status, r.Body)
			}
		}
		queries()
		list := c.Get("/posts/")
		want := `[{"id":1,"title":"one","tags":[1,3]},{"id":2,"title":"two","tags":[]},{"id":3,"title":"three","tags":[2]}]`
		if n := queries(); list.Status != 200 || !sameJSON(t, []byte(list.Body), []byte(want)) || n != 2 {
			t.Errorf("GET /posts/: %d %s in %d queries, want %s in 2", list.Status, list.Body, n, want)
		}
		r := c.Post("/posts/", `{"title":"bad","tags":[1,99]}`, "Content-Type: application/json")
		if want := `{"tags":["Invalid pk \"99\" - object does not exist."]}`; r.Status != 400 || !sameJSON(t, []byte(r.Body), []byte(want)) {
			t.Errorf("POST with a missing tag: %d %s, want 400 %s", r.Status, r.Body, want)
		}
		if r := c.Do("PATCH", "/posts/1/", `{"title":"one!"}`, "Content-Type: application/json"); r.Status != 200 ||
			!sameJSON(t, []byte(r.Body), []byte(`{"id":1,"title":"one!","tags":[1,3]}`)) {
			t.Errorf("PATCH of the title: %d %s", r.Status, r.Body)
		}
		if r := c.Do("PUT", "/posts/1/", `{"title":"one","tags":[1,2]}`, "Content-Type: application/json"); r.Status != 200 ||
			!sameJSON(t, []byte(r.Body), []byte(`{"id":1,"title":"one","tags":[1,2]}`)) {
			t.Errorf("PUT: %d %s", r.Status, r.Body)
		}
		// The browsable API's forms select among the related rows, several
		// at once (DRF's select_multiple.html).
		if r := c.Get("/posts/1/", "Accept: text/html"); r.Status != 200 || !strings.Contains(r.Body, `name="tags" multiple>`) {
			t.Errorf("the browsable page: %d", r.Status)
		}
		if r := c.Do("DELETE", "/posts/1/", ""); r.Status != 204 {
			t.Errorf("DELETE: %d %s", r.Status, r.Body)
		}
		var left int
		if err := db.Get(&left, `SELECT COUNT(*) FROM "rel_post_tags" WHERE "post_id" = 1`); err != nil || left != 0 {
			t.Errorf("%d through rows of the deleted post (%v)", left, err)
		}
	})
}
