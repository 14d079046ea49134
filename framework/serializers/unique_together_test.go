package serializers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// article is testdata/drf_unique_together.py's Article: its author,
// whom a HiddenField fills from the request's user, and its title are
// unique together.
type article struct {
	ID       int64  `db:"id" json:"id"`
	AuthorID int64  `db:"author_id" json:"-" model:"foreign_key=auth_user"`
	Title    string `db:"title" json:"title" model:"max_length=100"`
	Body     string `db:"body" json:"body" model:"blank,default="`
}

func (article) Meta() models.Meta {
	return models.Meta{App: "blog", UniqueTogether: [][]string{{"author", "title"}}}
}

// drfUniqueTogether is what drf_unique_together.py printed at one level:
// each step [method, id, user, data, {"saved": ...} or {"errors": ...}].
type drfUniqueTogether struct {
	Versions map[string]string   `json:"versions"`
	Steps    [][]json.RawMessage `json:"steps"`
}

// TestUniqueTogetherWithHiddenField: Meta.UniqueTogether pairing a
// HiddenField(CurrentUserDefault) with a field the client sends is
// checked with the hidden value, behind generic views on SQLite and
// PostgreSQL, as DRF 3.14 and 3.18 check it (drf_unique_together.py's
// steps, the same at both): a second article of one title by one author
// is 400 {"non_field_errors": ["The fields author, title must make a
// unique set."]}, where the set was never checked and the database's
// UNIQUE refused the insert (a 500); another author may take the title;
// a PUT sets the author anew and is checked so, a PATCH keeps the stored
// author and is checked with it.
func TestUniqueTogetherWithHiddenField(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "blog_article" ("id" ` + key + `, "author_id" integer NOT NULL, "title" varchar(100) NOT NULL, ` +
			`"body" text NOT NULL, UNIQUE ("author_id", "title"))`)
		g := generics.GenericAPIView[article]{
			Source:     queryset.MustSQL[article](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[article](serializers.HiddenField("author_id", serializers.CurrentUserDefault)),
		}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/articles/", generics.ListCreateAPIView(g))
		api.Handle("/articles/{pk}/", generics.RetrieveUpdateAPIView(g))
		c := apitest.New(t, api)
		users := map[string]member{"alice": 1, "bob": 2}
		for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
			t.Run(level, func(t *testing.T) {
				db.MustExec(`DELETE FROM "blog_article"`)
				if db.DriverName() == "sqlite3" {
					db.MustExec(`DELETE FROM sqlite_sequence WHERE name = 'blog_article'`)
				} else {
					db.MustExec(`ALTER SEQUENCE "blog_article_id_seq" RESTART`)
				}
				var drf drfUniqueTogether
				drfsuite.RunDRF(t, compatibility, "testdata/drf_unique_together.py", nil, &drf)
				if len(drf.Steps) == 0 {
					t.Fatal("no steps")
				}
				for _, step := range drf.Steps {
					var method, user string
					var id *int
					var want struct {
						Saved *struct {
							ID     int64  `json:"id"`
							Author string `json:"author"`
						} `json:"saved"`
						Errors json.RawMessage `json:"errors"`
					}
					for i, v := range []any{&method, &id, &user, nil, &want} {
						if v != nil {
							if err := json.Unmarshal(step[i], v); err != nil {
								t.Fatal(err)
							}
						}
					}
					path := "/articles/"
					if id != nil {
						path = fmt.Sprintf("/articles/%d/", *id)
					}
					c.ForceAuthenticate(users[user], nil)
					r := c.Do(method, path, string(step[3]), "Content-Type: application/json")
					name := fmt.Sprintf("%s %s by %s %s (DRF %s)", method, path, user, step[3], drf.Versions["rest_framework"])
					if want.Saved == nil {
						var body bytes.Buffer
						if err := json.Compact(&body, want.Errors); err != nil {
							t.Fatal(err)
						}
						if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != "400 "+body.String() {
							t.Errorf("%s: %s, want 400 %s", name, got, body.String())
						}
						continue
					}
					if r.Status != 200 && r.Status != 201 || int64(r.JSON()["id"].(float64)) != want.Saved.ID {
						t.Errorf("%s: %d %s, want article %d saved", name, r.Status, r.Body, want.Saved.ID)
						continue
					}
					var author int64
					if err := db.Get(&author, db.Rebind(`SELECT author_id FROM blog_article WHERE id = ?`), want.Saved.ID); err != nil {
						t.Fatal(err)
					}
					if author != users[want.Saved.Author].PK() {
						t.Errorf("%s: author %d, want %s", name, author, want.Saved.Author)
					}
				}
			})
		}
	})
}
