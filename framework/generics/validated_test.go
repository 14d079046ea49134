package generics_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
)

// invite is what validation looks an invitation code up to: state that is
// no column of the note and no field of its representation.
type invite struct {
	Team  string
	Seats int
}

// invites are the codes validation knows.
var invites = map[string]*invite{"alpha": {Team: "red", Seats: 2}, "beta": {Team: "blue", Seats: 0}, "gamma": {Team: "green", Seats: 1}}

// teamNote is written with an invitation code: the write-only code is no
// column; validation resolves it into the unexported invite, which the
// create and update hooks read.
type teamNote struct {
	ID     int64  `db:"id" json:"id"`
	Text   string `db:"text" json:"text" model:"max_length=50"`
	Team   string `db:"team" json:"team" drf:"read_only" model:"max_length=20,default="`
	Code   string `json:"code" drf:"write_only"`
	invite *invite
}

func (teamNote) Meta() models.Meta { return models.Meta{App: "notes", Table: "team_note"} }

// The values that validation sets on the item, an unexported field that
// no tag names included, are what the create and update hooks get: DRF's
// validated_data, typed, as validate() leaves it (attrs["invite"] = ...),
// and the hook's write is DRF's serializer.save(team=...). Through
// HTTP: a create, a partial update without a code and a full one with
// it, and the 400s of validation, before any hook runs.
func TestValidatedStateReachesHooks(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	db.MustExec(`CREATE TABLE "team_note" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "text" varchar(50) NOT NULL, "team" varchar(20) NOT NULL)`)
	ser := serializers.MustNew[teamNote](serializers.ValidateObject(func(n *teamNote, c *serializers.Context) error {
		if n.Code == "" {
			if n.ID == 0 {
				return serializers.Invalid("A code is required.")
			}
			return nil
		}
		inv, ok := invites[n.Code]
		if !ok || inv.Seats == 0 {
			return serializers.Invalid("No seat left for this code.")
		}
		n.invite = inv
		return nil
	}))
	var hooks []string
	g := generics.GenericAPIView[teamNote]{Source: queryset.MustSQL[teamNote](db, queryset.SQLConfig{}), Serializer: ser}
	g.PerformCreate = func(r *request.Request, n *teamNote) error {
		hooks = append(hooks, "create "+n.invite.Team)
		n.Team = n.invite.Team
		return g.InsertObject(r, n)
	}
	g.PerformUpdate = func(r *request.Request, n *teamNote) error {
		if n.invite != nil {
			hooks = append(hooks, "update "+n.invite.Team)
			n.Team = n.invite.Team
		} else {
			hooks = append(hooks, "update")
		}
		return g.UpdateObject(r, n)
	}
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/notes/", generics.ListCreateAPIView(g))
	api.Handle("/notes/{pk}/", generics.RetrieveUpdateAPIView(g))
	c := apitest.New(t, api)
	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/notes/", `{"text":"hi","code":"alpha"}`, 201, `{"id":1,"text":"hi","team":"red"}`},
		{"POST", "/notes/", `{"text":"no","code":"beta"}`, 400, `{"non_field_errors":["No seat left for this code."]}`},
		{"POST", "/notes/", `{"text":"no"}`, 400, `{"non_field_errors":["A code is required."]}`},
		{"PATCH", "/notes/1/", `{"text":"hey"}`, 200, `{"id":1,"text":"hey","team":"red"}`},
		{"PUT", "/notes/1/", `{"text":"moved","code":"gamma"}`, 200, `{"id":1,"text":"moved","team":"green"}`},
		{"GET", "/notes/1/", ``, 200, `{"id":1,"text":"moved","team":"green"}`},
	} {
		r := c.Do(tc.method, tc.path, tc.body)
		if r.Status != tc.status || r.Body != tc.want {
			t.Errorf("%s %s %s = %d %s\nwant %d %s", tc.method, tc.path, tc.body, r.Status, r.Body, tc.status, tc.want)
		}
	}
	if got := strings.Join(hooks, ", "); got != "create red, update, update green" {
		t.Errorf("hooks saw %q", got)
	}
}
