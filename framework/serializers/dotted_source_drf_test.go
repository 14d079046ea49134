package serializers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// dsSetUp makes drf_dotted_source.py's tables and rows: the users
// "existing" (1) and "second" (2), and "second"'s RelatedModel (1).
func dsSetUp(t *testing.T, db *sqlx.DB) {
	t.Helper()
	drfvSetUp(t, db, []string{"tests_uniquenessmodel", "drfv_relatedmodel"},
		`INSERT INTO "tests_uniquenessmodel" ("username") VALUES ('existing'), ('second')`,
		`INSERT INTO "drfv_relatedmodel" ("user_id", "email") VALUES (2, 'second@example.com')`)
}

// dsView is a generic view of RelatedModelSerializer on db; perform,
// when not nil, is its PerformCreate and PerformUpdate.
func dsView(db *sqlx.DB, perform func(*request.Request, *drfvRelatedUsername) error) generics.GenericAPIView[drfvRelatedUsername] {
	return generics.GenericAPIView[drfvRelatedUsername]{
		Source:        queryset.MustSQL[drfvRelatedUsername](db, queryset.SQLConfig{}),
		Serializer:    serializers.MustNew[drfvRelatedUsername](drfvUsernameUnique(db)),
		PerformCreate: perform,
		PerformUpdate: perform,
	}
}

// dsPerform is ExplicitCreateSerializer.create() as a Perform hook: the
// user row of the validated username, then the item keyed to it.
func dsPerform(db *sqlx.DB) func(*request.Request, *drfvRelatedUsername) error {
	users := queryset.MustSQL[uqUser](db, queryset.SQLConfig{})
	return func(r *request.Request, item *drfvRelatedUsername) error {
		u := uqUser{Username: item.Username}
		if err := users.Insert(r.Context(), &u); err != nil {
			return err
		}
		item.UserID = u.ID
		return queryset.MustSQL[drfvRelatedUsername](db, queryset.SQLConfig{}).Insert(r.Context(), item)
	}
}

// TestDottedSourceAsDRF: a dotted source declared writable
// (drf:"source=user.username,read_only=false") answers as DRF's
// RelatedModelSerializer (drf_dotted_source.py, run at each level), on
// SQLite and PostgreSQL: its UniqueValidator's queryset of another model
// refuses a name in another case, and an update leaves out the user
// keyed as the item (DRF's exclude(pk=instance.pk)); a create or an
// update view without a Perform hook is refused at setup in the words of
// DRF's AssertionError on save(); with one, the validated value is in the
// item for it to write, and the 201 is DRF's serializer.data after an
// explicit create(); OPTIONS describes the field as writable, and the
// browsable forms hold it.
func TestDottedSourceAsDRF(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
			answers := drfScriptAnswers(t, "drf_dotted_source.py", level)
			dsSetUp(t, db)
			for _, name := range slices.Sorted(maps.Keys(answers)) {
				var want struct {
					Step   [2]json.RawMessage `json:"step"`
					Errors json.RawMessage    `json:"errors"`
				}
				if json.Unmarshal(answers[name], &want) != nil || want.Step[0] == nil {
					continue
				}
				var method string
				if err := json.Unmarshal(want.Step[0], &method); err != nil {
					t.Fatal(err)
				}
				s := drfvNew[drfvRelatedUsername](t, db, level, drfvUsernameUnique(db))
				var stored *drfvRelatedUsername
				if method != "POST" {
					stored = s.instance(t, 1)
				}
				got, errs := s.isValid(t, stored, method == "PATCH", string(want.Step[1]))
				if diff := drfvErrors(name, orEmpty(errs), orEmpty(string(want.Errors))); diff != "" {
					t.Errorf("%v: %s %s: %s", level, method, want.Step[1], diff)
				}
				var data map[string]any
				if errs == "" && json.Unmarshal(want.Step[1], &data) == nil && data["username"] != nil && got.Username != data["username"] {
					t.Errorf("%v: %s %s: the item's username %q", level, method, want.Step[1], got.Username)
				}
			}
			dsRefused(t, db, level, answers)
			dsExplicitCreate(t, db, level, answers)
		}
	})
}

// dsRefused: without a Perform hook, a create and an update view are
// refused at setup, naming the view and the field, in DRF's words
// ("__main__.RelatedModelSerializer" is Serializer[T]).
func dsRefused(t *testing.T, db *sqlx.DB, level framework.Compatibility, answers map[string]json.RawMessage) {
	t.Helper()
	g := dsView(db, nil)
	for _, c := range []struct {
		action framework.ViewAction
		item   string
	}{{framework.ActionCreate, "refused create"}, {framework.ActionUpdate, "refused update"}} {
		var drf struct {
			Assertion string `json:"assertion"`
		}
		if err := json.Unmarshal(answers[c.item], &drf); err != nil || drf.Assertion == "" {
			t.Fatalf("%v: %s: %s", level, c.item, answers[c.item])
		}
		want := strings.Replace(drf.Assertion, "__main__.RelatedModelSerializer", "Serializer[serializers_test.drfvRelatedUsername]", 1)
		err := g.CheckActions(c.action)
		if err == nil || !strings.Contains(err.Error(), `"username" is a writable dotted source: `+want) {
			t.Errorf("%v: %s view: %v\nDRF: %s", level, c.action, err, drf.Assertion)
		}
	}
	if err := g.CheckActions(framework.ActionList, framework.ActionRetrieve, framework.ActionDestroy); err != nil {
		t.Errorf("%v: reads and deletes: %v", level, err)
	}
}

// dsExplicitCreate: through a PerformCreate, a POST is DRF's explicit
// create(): 201 with serializer.data, and the rows written; OPTIONS is
// DRF's SimpleMetadata of the fields; the browsable POST form holds the
// field, and the PUT form the user's name.
func dsExplicitCreate(t *testing.T, db *sqlx.DB, level framework.Compatibility, answers map[string]json.RawMessage) {
	t.Helper()
	var drf struct {
		Data json.RawMessage `json:"data"`
		Rows [][2]string     `json:"rows"`
	}
	if err := json.Unmarshal(answers["explicit create"], &drf); err != nil {
		t.Fatal(err)
	}
	api := framework.NewAPI(nil, framework.Settings{Compatibility: level,
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{})})
	g := dsView(db, dsPerform(db))
	api.Handle("/related/", generics.ListCreateAPIView(g))
	api.Handle("/related/{pk}/", generics.RetrieveUpdateAPIView(g))
	c := apitest.New(t, api)
	r := c.Post("/related/", `{"username": "new-username", "email": "new-email@example.com"}`, "Content-Type: application/json")
	if diff := drfvErrors("201", string(r.Body), string(drf.Data)); r.Status != 201 || diff != "" {
		t.Errorf("%v: POST: %d %s, DRF: 201 %s", level, r.Status, r.Body, drf.Data)
	}
	var rows [][2]string
	q := `SELECT u."username", r."email" FROM "drfv_relatedmodel" r JOIN "tests_uniquenessmodel" u ON u."id" = r."user_id" ORDER BY r."id"`
	got, err := db.QueryxContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	for got.Next() {
		var row [2]string
		if err := got.Scan(&row[0], &row[1]); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	if fmt.Sprint(rows) != fmt.Sprint(drf.Rows) {
		t.Errorf("%v: rows %v, DRF's %v", level, rows, drf.Rows)
	}
	var options struct {
		Actions struct {
			POST json.RawMessage `json:"POST"`
		} `json:"actions"`
	}
	opts := c.Do("OPTIONS", "/related/", "")
	if err := json.Unmarshal([]byte(opts.Body), &options); err != nil {
		t.Fatalf("%v: OPTIONS: %d %s", level, opts.Status, opts.Body)
	}
	if diff := drfvErrors("OPTIONS POST", string(options.Actions.POST), string(answers["options"])); diff != "" {
		t.Errorf("%v: %s", level, diff)
	}
	post := c.Get("/related/", "Accept: text/html").Body
	put := c.Get("/related/1/", "Accept: text/html").Body
	if !dsInput.MatchString(post) || !strings.Contains(dsInput.FindString(put), `value="second"`) {
		t.Errorf("%v: the browsable forms' username inputs: POST %q, PUT %q", level, dsInput.FindString(post), dsInput.FindString(put))
	}
	dsSetUp(t, db)
}

// dsInput is the input of the username in a browsable form.
var dsInput = regexp.MustCompile(`<input[^>]*name="username"[^>]*>`)
