package serializers_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// drfPost is testdata/drf_manytomany.py's Post: tags, which may not be
// empty, and labels, blank.
type drfPost struct {
	ID     int64   `db:"id" json:"id"`
	Title  string  `db:"title" json:"title" model:"max_length=50"`
	Tags   []int64 `json:"tags" model:"many_to_many=blog_tag,related_name=posts"`
	Labels []int64 `json:"labels" model:"many_to_many=blog_tag,blank,related_name=labelled"`
}

func (drfPost) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }

// drfLinkPost is drf_manytomany.py's LinkSerializer, a
// HyperlinkedModelSerializer: tags as HyperlinkedRelatedField(many=True).
type drfLinkPost struct {
	ID    int64   `db:"id" json:"id"`
	Title string  `db:"title" json:"title" model:"max_length=50"`
	Tags  []int64 `json:"tags" model:"many_to_many=blog_tag,related_name=posts" drf:"view_name=tag-detail"`
}

func (drfLinkPost) Meta() models.Meta { return models.Meta{App: "blog", Name: "Post"} }

// drfTag is drf_manytomany.py's Tag, for the route tag-detail.
type drfTag struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name" model:"max_length=20"`
}

func (drfTag) Meta() models.Meta { return models.Meta{App: "blog", Name: "Tag"} }

// drfManyToMany is what testdata/drf_manytomany.py prints.
type drfManyToMany struct {
	Options     json.RawMessage     `json:"options"`
	LinkOptions json.RawMessage     `json:"link_options"`
	Steps       [][]json.RawMessage `json:"steps"`
	Links       [][]json.RawMessage `json:"links"`
}

// A ModelSerializer over many-to-many fields answers as DRF 3.14's and
// DRF 3.18's (testdata/drf_manytomany.py) through generic views, on
// SQLite and PostgreSQL: the keys read, JSON and form writes (a
// partial one leaving a field out leaves it alone), each error in DRF's
// words, and OPTIONS; and a HyperlinkedModelSerializer's hyperlinks.
func TestManyToManyAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfManyToMany
			drfsuite.RunDRF(t, compatibility, "testdata/drf_manytomany.py", nil, &drf)
			if len(drf.Steps) == 0 {
				t.Fatal("no steps")
			}
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
				if store.DialectOf(db) == store.PostgreSQL {
					id = "bigserial NOT NULL PRIMARY KEY"
				}
				db.MustExec(`CREATE TABLE "blog_tag" ("id" ` + id + `, "name" varchar(20) NOT NULL)`)
				db.MustExec(`CREATE TABLE "blog_post" ("id" ` + id + `, "title" varchar(50) NOT NULL)`)
				for _, through := range []string{"blog_post_tags", "blog_post_labels"} {
					db.MustExec(`CREATE TABLE "` + through + `" ("id" ` + id + `, ` +
						`"post_id" bigint NOT NULL REFERENCES "blog_post" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
						`"tag_id" bigint NOT NULL REFERENCES "blog_tag" ("id") DEFERRABLE INITIALLY DEFERRED, UNIQUE ("post_id", "tag_id"))`)
				}
				db.MustExec(`INSERT INTO "blog_tag" ("name") VALUES ('go'), ('sql'), ('web')`)
				g := generics.GenericAPIView[drfPost]{Source: queryset.MustSQL[drfPost](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[drfPost]()}
				api := framework.NewAPI(nil, framework.Settings{Compatibility: compatibility})
				api.Handle("/posts/", generics.ListCreateAPIView(g))
				api.Handle("/posts/{pk}/", generics.RetrieveUpdateAPIView(g), framework.Named("post-detail"))
				api.Handle("/tags/{pk}/", generics.RetrieveAPIView(generics.GenericAPIView[drfTag]{
					Source: queryset.MustSQL[drfTag](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[drfTag]()}), framework.Named("tag-detail"))
				links := serializers.MustNew[drfLinkPost]()
				api.Handle("/links/", generics.ListCreateAPIView(generics.GenericAPIView[drfLinkPost]{
					Source: queryset.MustSQL[drfLinkPost](db, queryset.SQLConfig{}), Serializer: links}))
				c := apitest.New(t, api)
				for _, step := range drf.Steps {
					var method string
					var pk *int
					var form bool
					var want map[string]json.RawMessage
					for i, v := range map[int]any{0: &method, 1: &pk, 2: &form, 4: &want} {
						if err := json.Unmarshal(step[i], v); err != nil {
							t.Fatal(err)
						}
					}
					body, ctype := string(step[3]), "application/json"
					if form {
						if err := json.Unmarshal(step[3], &body); err != nil {
							t.Fatal(err)
						}
						ctype = "application/x-www-form-urlencoded"
					}
					path := "/posts/"
					if pk != nil {
						path = "/posts/" + strconv.Itoa(*pk) + "/"
					}
					r := c.Do(method, path, body, "Content-Type: "+ctype)
					status, answer := 400, want["errors"]
					if data, ok := want["data"]; ok {
						status, answer = 200, data
						if pk == nil {
							status = 201
						}
					}
					if r.Status != status || !sameJSON(t, []byte(r.Body), answer) {
						t.Errorf("%s %s %s: %d %s\nDRF: %d %s", method, path, body, r.Status, r.Body, status, answer)
					}
				}
				for _, step := range drf.Links {
					var want map[string]json.RawMessage
					if err := json.Unmarshal(step[1], &want); err != nil {
						t.Fatal(err)
					}
					status, answer := 400, want["errors"]
					if data, ok := want["data"]; ok {
						status, answer = 201, data
					}
					if r := c.Post("/links/", string(step[0]), "Content-Type: application/json"); r.Status != status || !sameJSON(t, []byte(r.Body), answer) {
						t.Errorf("POST /links/ %s: %d %s\nDRF: %d %s", step[0], r.Status, r.Body, status, answer)
					}
				}
				if got := serializers.MustNew[drfPost]().FieldInfo(); !sameJSON(t, got, drf.Options) {
					t.Errorf("OPTIONS: %s\nDRF: %s", got, drf.Options)
				}
				if got := links.FieldInfo(); !sameJSON(t, got, drf.LinkOptions) {
					t.Errorf("OPTIONS of the links: %s\nDRF: %s", got, drf.LinkOptions)
				}
			})
		})
	}
}
