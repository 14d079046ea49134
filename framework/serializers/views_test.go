package serializers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// memo is a model with a TextField, a choice with a default, a literal
// default, the owner's key and a unique-together pair.
type memo struct {
	ID       int64  `db:"id" json:"id"`
	Title    string `db:"title" json:"title" model:"max_length=50"`
	Body     string `db:"body" json:"body"`
	Language string `db:"language" json:"language" model:"max_length=20,default=python"`
	Rank     int    `db:"rank" json:"rank" model:"default=3"`
	OwnerID  int64  `db:"owner_id" json:"-"`
}

func (memo) Meta() models.Meta {
	return models.Meta{App: "notes", Table: "memo",
		Choices:        map[string][]models.Choice{"language": languages},
		UniqueTogether: [][]string{{"title", "body"}}}
}

// member is a user with a primary key.
type member int64

func (m member) GetUsername() string { return fmt.Sprint("user", int64(m)) }
func (member) IsAuthenticated() bool { return true }
func (member) IsActive() bool        { return true }
func (member) IsStaff() bool         { return false }
func (m member) PK() int64           { return int64(m) }

// forbidden is an extra value of the serializer's context: a title the
// view refuses.
var forbidden = serializers.NewKey[string]("forbidden")

// A model's serializer behind generic views, on SQLite and PostgreSQL: a
// new item gets the model's defaults and, from HiddenField with
// CurrentUserDefault, the requester's key; the title goes through its
// ValidateField (which reads an extra context value the view sets);
// choices and Meta.UniqueTogether are checked in DRF's words; a PATCH
// sets neither defaults nor the hidden field, a PUT sets the hidden field
// again (as DRF's HiddenField does) but no default; OPTIONS lists the
// choices and not the hidden field.
func TestModelSerializerBehindGenericViews(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "serial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "memo" ("id" ` + key + `, "title" varchar(50) NOT NULL, "body" text NOT NULL, ` +
			`"language" varchar(20) NOT NULL, "rank" integer NOT NULL, "owner_id" integer NOT NULL, UNIQUE ("title", "body"))`)
		ser := serializers.MustNew[memo](
			serializers.HiddenField("owner_id", serializers.CurrentUserDefault),
			serializers.ValidateField("title", func(title string, c *serializers.Context) (string, error) {
				if no, _ := forbidden.Get(c); strings.EqualFold(title, no) {
					return "", serializers.Invalid("This title is not allowed here.")
				}
				return strings.ToUpper(title), nil
			}))
		g := generics.GenericAPIView[memo]{Source: queryset.MustSQL[memo](db, queryset.SQLConfig{Table: "memo"}), Serializer: ser,
			ContextValues: func(r *request.Request) context.Context { return forbidden.With(r.Context(), "nope") }}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/memos/", generics.ListCreateAPIView(g))
		api.Handle("/memos/{pk}/", generics.RetrieveUpdateAPIView(g))
		c := apitest.New(t, api)
		owner := func(id int) int64 {
			var o int64
			if err := db.Get(&o, db.Rebind(`SELECT owner_id FROM memo WHERE id = ?`), id); err != nil {
				t.Fatal(err)
			}
			return o
		}
		anonymous := c.Post("/memos/", `{"title":"a","body":"x"}`, "Content-Type: application/json")
		if anonymous.Status != 403 || !strings.Contains(anonymous.Body, "Authentication credentials were not provided.") {
			t.Errorf("anonymous POST: %d %s", anonymous.Status, anonymous.Body)
		}
		c.ForceAuthenticate(member(7), nil)
		for _, step := range []struct{ method, path, body, want string }{
			{"POST", "/memos/", `{"title":"a","body":"x"}`, `201 {"id":1,"title":"A","body":"x","language":"python","rank":3}`},
			{"POST", "/memos/", `{"title":"a","body":"x"}`, `400 {"non_field_errors":["The fields title, body must make a unique set."]}`},
			{"POST", "/memos/", `{"title":"b","body":"x","language":"cobol","rank":"x"}`, `400 {"language":["\"cobol\" is not a valid choice."],"rank":["A valid integer is required."]}`},
			{"POST", "/memos/", `{"title":"Nope","body":"y"}`, `400 {"title":["This title is not allowed here."]}`},
			{"POST", "/memos/", `{"body":"y"}`, `400 {"title":["This field is required."]}`},
			{"POST", "/memos/", `{"title":"b","body":"x","language":"go","rank":1}`, `201 {"id":2,"title":"B","body":"x","language":"go","rank":1}`},
		} {
			r := c.Do(step.method, step.path, step.body, "Content-Type: application/json")
			if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
				t.Errorf("%s %s %s: %s, want %s", step.method, step.path, step.body, got, step.want)
			}
		}
		if o := owner(1); o != 7 {
			t.Errorf("created by user 7: owner_id %d", o)
		}
		c.ForceAuthenticate(member(8), nil)
		for _, step := range []struct{ method, path, body, want string }{
			{"PATCH", "/memos/1/", `{"language":"go"}`, `200 {"id":1,"title":"A","body":"x","language":"go","rank":3}`},
			{"PATCH", "/memos/1/", `{"title":"b"}`, `400 {"non_field_errors":["The fields title, body must make a unique set."]}`},
		} {
			r := c.Do(step.method, step.path, step.body, "Content-Type: application/json")
			if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
				t.Errorf("%s %s %s: %s, want %s", step.method, step.path, step.body, got, step.want)
			}
		}
		if o := owner(1); o != 7 {
			t.Errorf("a PATCH by user 8 changed the owner: %d", o)
		}
		put := c.Do("PUT", "/memos/1/", `{"title":"a","body":"x"}`, "Content-Type: application/json")
		if got := fmt.Sprintf("%d %s", put.Status, put.Body); got != `200 {"id":1,"title":"A","body":"x","language":"go","rank":3}` {
			t.Errorf("PUT without language: %s (the stored language stays, no default)", got)
		}
		if o := owner(1); o != 8 {
			t.Errorf("a PUT by user 8: owner_id %d, want 8 (DRF's HiddenField)", o)
		}
		opts := c.Do("OPTIONS", "/memos/", "")
		post, _ := opts.JSON()["actions"].(map[string]any)["POST"].(map[string]any)
		lang, _ := post["language"].(map[string]any)
		if _, hidden := post["owner_id"]; hidden || lang["type"] != "choice" || fmt.Sprint(lang["choices"]) != "[map[display_name:Go value:go] map[display_name:Python value:python]]" {
			t.Errorf("OPTIONS actions: %v", post)
		}
	})
}
