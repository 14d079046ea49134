package auth_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/contenttypes"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// modelRequest is one request of the comparison, modelAnswer its answer.
type modelRequest struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Body   string `json:"body,omitempty"`
}

type modelAnswer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// modelRequests are sent to both sides in order: writes, reads and
// errors of users and groups, and OPTIONS of the four models.
var modelRequests = []modelRequest{
	{"POST", "/users/", `{"username":"alice","email":"alice@example.com","is_staff":true}`},
	{"POST", "/users/", `{"username":"bob"}`},
	{"POST", "/users/", `{"username":"alice","email":"other@example.com"}`},
	{"POST", "/users/", `{"username":"bad name!"}`},
	{"POST", "/users/", `{"username":"ｃａｒｏｌ","email":"not-an-email"}`},
	{"POST", "/users/", `{}`},
	{"POST", "/users/", `{"username":""}`},
	{"POST", "/users/", `{"username":"` + strings.Repeat("d", 151) + `"}`},
	{"POST", "/users/", `{"username":"` + strings.Repeat("é", 150) + `"}`},
	{"POST", "/users/", `{"username":"dave","is_staff":"maybe"}`},
	{"POST", "/users/", `{"username":"` + strings.Repeat("!", 151) + `"}`},
	{"POST", "/users/", `{"username":" padded "}`},
	{"GET", "/users/", ""},
	{"GET", "/users/1/", ""},
	{"GET", "/users/99/", ""},
	{"PATCH", "/users/2/", `{"username":"alice"}`},
	{"PATCH", "/users/2/", `{"username":"bob"}`},
	{"PUT", "/users/2/", `{"username":"bobby","email":"Bobby@Example.COM"}`},
	{"GET", "/users/2/", ""},
	{"OPTIONS", "/users/", ""},
	{"OPTIONS", "/users/1/", ""},
	{"POST", "/groups/", `{"name":"editors"}`},
	{"POST", "/groups/", `{"name":"editors"}`},
	{"POST", "/groups/", `{"name":"` + strings.Repeat("g", 151) + `"}`},
	{"POST", "/groups/", `{"name":"readers"}`},
	{"GET", "/groups/", ""},
	{"GET", "/groups/2/", ""},
	{"DELETE", "/groups/2/", ""},
	{"GET", "/groups/", ""},
	{"OPTIONS", "/groups/", ""},
	{"OPTIONS", "/permissions/", ""},
	{"OPTIONS", "/contenttypes/", ""},
}

// drfModels is testdata/drf_models.py's answer.
type drfModels struct {
	Answers []modelAnswer              `json:"answers"`
	Schemas map[string]json.RawMessage `json:"schemas"`
}

// drfModelAnswers runs testdata/drf_models.py under one Django and DRF.
func drfModelAnswers(t *testing.T, d djangoSide) drfModels {
	t.Helper()
	b, err := json.Marshal(modelRequests)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DJANGO_DB", filepath.Join(t.TempDir(), "db.sqlite3"))
	out := pyrun.Exec(t, d.level, nil, filepath.Join("testdata", "drf_models.py"), string(b))
	var answers drfModels
	if err := json.Unmarshal(out, &answers); err != nil {
		t.Fatalf("Django %s answered %q: %v", d.level.Django, out, err)
	}
	return answers
}

// modelViewSet is a ModelViewSet over the model T with the serializer
// of fields, ordered by the key, as the Python side's.
func modelViewSet[T any](t *testing.T, db *sqlx.DB, fields ...string) *generics.ModelViewSet[T] {
	t.Helper()
	src, err := queryset.NewSQL[T](db, queryset.SQLConfig{Ordering: []query.Order{{Field: "id"}}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := serializers.New[T](serializers.Fields(fields...))
	if err != nil {
		t.Fatal(err)
	}
	vs := &generics.ModelViewSet[T]{}
	vs.Source, vs.Serializer = src, s
	return vs
}

// goModelAnswers sends modelRequests to the Go side on db, migrated by
// auth.Migrations, at the compatibility level of d's DRF, and returns
// the answers with the OpenAPI schemas of the serializers.
func goModelAnswers(t *testing.T, d djangoSide, db *sqlx.DB) drfModels {
	t.Helper()
	api := framework.NewAPI(db, framework.Settings{Compatibility: d.level.Compat})
	var router routers.SimpleRouter
	router.Register("users", modelViewSet[auth.User](t, db, "id", "username", "email", "is_staff"), "user")
	router.Register("groups", modelViewSet[auth.Group](t, db, "id", "name"), "group")
	router.Register("permissions", modelViewSet[auth.Permission](t, db, "id", "name", "content_type", "codename"), "permission")
	router.Register("contenttypes", modelViewSet[contenttypes.ContentType](t, db, "id", "app_label", "model"), "contenttype")
	router.Mount(api)
	c := apitest.New(t, api)
	var answers []modelAnswer
	for _, req := range modelRequests {
		var r *apitest.Response
		if req.Body != "" {
			r = c.Do(req.Method, req.Path, req.Body, "Content-Type: application/json")
		} else {
			r = c.Do(req.Method, req.Path, "")
		}
		a := modelAnswer{Status: r.Status}
		if len(r.Body) > 0 {
			a.Body = json.RawMessage(r.Body)
		}
		answers = append(answers, a)
	}
	doc, err := (&schemas.Generator{API: api}).Document("")
	if err != nil {
		t.Fatal(err)
	}
	out := drfModels{Answers: answers, Schemas: map[string]json.RawMessage{}}
	for name := range drfModelsSchemas {
		s, ok := doc.Components.Schemas.Get(name)
		if !ok {
			t.Fatalf("no component %s in the OpenAPI document", name)
		}
		if out.Schemas[name], err = json.Marshal(s); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// drfModelsSchemas are the components compared. Permission's is not:
// its content_type, a PrimaryKeyRelatedField, is {"type": "integer"} in
// DRF's schema (the related key's type) and {} in the framework's.
var drfModelsSchemas = map[string]bool{"User": true, "Group": true, "ContentType": true}

// compared is an answer as compared: the body decoded, and of an
// OPTIONS answer only its actions (its name and description are the
// view's).
func compared(t *testing.T, req modelRequest, a modelAnswer) any {
	t.Helper()
	var body any
	if len(a.Body) > 0 && string(a.Body) != "null" {
		if err := json.Unmarshal(a.Body, &body); err != nil {
			t.Fatalf("%s %s: %s: %v", req.Method, req.Path, a.Body, err)
		}
	}
	if m, ok := body.(map[string]any); ok && req.Method == "OPTIONS" {
		body = m["actions"]
	}
	return []any{a.Status, body}
}

// TestAuthModelsAnswerAsDRF serves ModelSerializers over auth.User
// (id, username, email, is_staff), auth.Group (id, name),
// auth.Permission and contenttypes.ContentType through ModelViewSets on
// sources derived from the models alone, on SQLite and PostgreSQL, and
// compares every answer (status and body) with DRF's for the same
// serializers over Django's own models, under DRF 3.14 with Django 3.2
// and DRF 3.18 with Django 5.2: creations, a taken username ("A user
// with that username already exists.") and group name, the username's
// validator, its length, a bad e-mail and boolean, lists, details, a 404,
// updates, a delete and OPTIONS with Django's labels and help texts; and
// the OpenAPI schemas of the serializers (help texts as descriptions, the
// username's pattern). A user created through the serializer is stored
// with Django's defaults (active, joined now, no last login).
func TestAuthModelsAnswerAsDRF(t *testing.T) {
	djangos(t, func(t *testing.T, d djangoSide) {
		want := drfModelAnswers(t, d)
		for name, open := range map[string]func(t *testing.T) *sqlx.DB{
			"sqlite": func(t *testing.T) *sqlx.DB {
				path, _ := superuserDB(t)
				return openSQLite(t, path)
			},
			"postgres": func(t *testing.T) *sqlx.DB { return testservers.OpenPostgres(t, auth.Migrations...) },
		} {
			t.Run(name, func(t *testing.T) {
				db := open(t)
				got := goModelAnswers(t, d, db)
				// The row alice's POST wrote has Django's defaults.
				alice, err := (&auth.Users{DB: db}).GetByUsername(context.Background(), "alice")
				if err != nil || !alice.Active || !alice.Staff || alice.Superuser || alice.Password != "" ||
					alice.LastLogin != nil || time.Since(alice.DateJoined) > time.Minute || alice.Email != "alice@example.com" {
					t.Errorf("alice as stored: %+v %v", alice, err)
				}
				for i, req := range modelRequests {
					g, w := got.Answers[i], want.Answers[i]
					if !reflect.DeepEqual(compared(t, req, g), compared(t, req, w)) {
						t.Errorf("%s %s %s:\n go  %d %s\n drf %d %s", req.Method, req.Path, req.Body, g.Status, g.Body, w.Status, w.Body)
					}
				}
				for name := range drfModelsSchemas {
					g, w := got.Schemas[name], want.Schemas[name]
					if !sameJSON(t, g, w) {
						t.Errorf("OpenAPI schema of %s:\n go  %s\n drf %s", name, g, w)
					}
				}
			})
		}
	})
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}
