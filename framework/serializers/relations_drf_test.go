package serializers_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// drfRelations are DRF 3.14's answers for the relational fields of
// testdata/drf_relations.py, which loadRelations runs (drfsuite.RunDRF).
type drfRelations struct {
	PKInfo        json.RawMessage            `json:"pk_info"`
	SlugInfo      json.RawMessage            `json:"slug_info"`
	LinkInfo      json.RawMessage            `json:"link_info"`
	ReadOnlyInfo  map[string]json.RawMessage `json:"readonly_info"`
	UserLinks     map[string]map[string]any  `json:"userlinks_info"`
	UserLinksData json.RawMessage            `json:"userlinks_data"`
	PKData        json.RawMessage            `json:"pk_data"`
	SlugData      json.RawMessage            `json:"slug_data"`
	LinkData      json.RawMessage            `json:"link_data"`
	PKErrors      map[string]drfResult       `json:"pk_errors"`
	SlugErrors    map[string]drfResult       `json:"slug_errors"`
	LinkErrors    map[string]drfResult       `json:"link_errors"`
	Versions      map[string]map[string]any  `json:"versions"`
}

func loadRelations(t *testing.T) drfRelations {
	t.Helper()
	var a drfRelations
	drfsuite.RunDRF(t, framework.DRF314, "testdata/drf_relations.py", nil, &a)
	return a
}

// relUser is drf_relations.py's auth user.
type relUser struct {
	ID       int64  `db:"id" json:"id"`
	Username string `db:"username" json:"username" model:"max_length=150,unique"`
	Email    string `db:"email" json:"email" model:"field=EmailField,blank"`
}

func (relUser) Meta() models.Meta {
	return models.Meta{App: "auth", Table: "rel_user", Unmanaged: true}
}

// pkSnippet is drf_relations.py's PK serializer: the model's foreign keys
// as ModelSerializer derives them, PrimaryKeyRelatedFields.
type pkSnippet struct {
	ID       int64  `db:"id" json:"id"`
	Title    string `db:"title" json:"title" model:"max_length=100"`
	Owner    int64  `db:"owner_id" json:"owner" model:"foreign_key=rel_user,related_name=snippets" drf:"display=username"`
	Reviewer *int64 `db:"reviewer_id" json:"reviewer" model:"foreign_key=rel_user,on_delete=set_null,related_name=reviews" drf:"display=username"`
}

func (pkSnippet) Meta() models.Meta { return models.Meta{App: "snippets", Table: "rel_snippet"} }

// slugSnippet is drf_relations.py's Slug serializer: the owner's and the
// reviewer's usernames, read by joins and written by looking them up.
type slugSnippet struct {
	ID         int64   `db:"id" json:"id"`
	Title      string  `db:"title" json:"title" model:"max_length=100"`
	OwnerID    int64   `db:"owner_id" json:"-" model:"foreign_key=rel_user"`
	ReviewerID *int64  `db:"reviewer_id" json:"-" model:"foreign_key=rel_user,on_delete=set_null"`
	Owner      string  `json:"owner" drf:"source=owner.username,slug_related"`
	Reviewer   *string `json:"reviewer" drf:"source=reviewer.username,slug_related"`
}

func (slugSnippet) Meta() models.Meta { return models.Meta{App: "snippets", Table: "rel_snippet"} }

// linkSnippet is drf_relations.py's Link serializer: writable
// HyperlinkedRelatedFields of the foreign keys.
type linkSnippet struct {
	ID       int64  `db:"id" json:"id"`
	Title    string `db:"title" json:"title" model:"max_length=100"`
	Owner    int64  `db:"owner_id" json:"owner" model:"foreign_key=rel_user" drf:"view_name=user-detail,display=username"`
	Reviewer *int64 `db:"reviewer_id" json:"reviewer" model:"foreign_key=rel_user,on_delete=set_null" drf:"view_name=user-detail,display=username"`
}

func (linkSnippet) Meta() models.Meta { return models.Meta{App: "snippets", Table: "rel_snippet"} }

// relTables creates drf_relations.py's tables and rows: users ann (1) and
// bob (2), snippets "one" (ann's, reviewed by bob) and "two" (bob's).
func relTables(t *testing.T, db *sqlx.DB) {
	t.Helper()
	key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
	if db.DriverName() != "sqlite3" {
		key = "serial NOT NULL PRIMARY KEY"
	}
	db.MustExec(`CREATE TABLE "rel_user" ("id" ` + key + `, "username" varchar(150) NOT NULL UNIQUE, "email" varchar(254) NOT NULL)`)
	db.MustExec(`CREATE TABLE "rel_snippet" ("id" ` + key + `, "title" varchar(100) NOT NULL, ` +
		`"owner_id" integer NOT NULL REFERENCES "rel_user" ("id"), "reviewer_id" integer NULL REFERENCES "rel_user" ("id"))`)
	db.MustExec(`INSERT INTO "rel_user" ("username", "email") VALUES ('ann', 'ann@x.org'), ('bob', 'bob@x.org')`)
	db.MustExec(`INSERT INTO "rel_snippet" ("title", "owner_id", "reviewer_id") VALUES ('one', 1, 2), ('two', 2, NULL)`)
}

// relAPI serves the three serializers of rel_snippet at /pk/, /slug/ and
// /link/, and the users' and snippets' detail routes the links name.
func relAPI(t *testing.T, db *sqlx.DB) http.Handler {
	t.Helper()
	api := framework.NewAPI(nil, framework.Settings{})
	pk := generics.GenericAPIView[pkSnippet]{Source: queryset.MustSQL[pkSnippet](db, queryset.SQLConfig{}),
		Serializer: serializers.MustNew[pkSnippet]()}
	slug := generics.GenericAPIView[slugSnippet]{Source: queryset.MustSQL[slugSnippet](db, queryset.SQLConfig{}),
		Serializer: serializers.MustNew[slugSnippet]()}
	link := generics.GenericAPIView[linkSnippet]{Source: queryset.MustSQL[linkSnippet](db, queryset.SQLConfig{}),
		Serializer: serializers.MustNew[linkSnippet]()}
	users := generics.GenericAPIView[relUser]{Source: queryset.MustSQL[relUser](db, queryset.SQLConfig{}),
		Serializer: serializers.MustNew[relUser]()}
	api.Handle("/pk/", generics.ListCreateAPIView(pk))
	api.Handle("/pk/{pk}/", generics.RetrieveUpdateAPIView(pk))
	api.Handle("/slug/", generics.ListCreateAPIView(slug))
	api.Handle("/link/", generics.ListCreateAPIView(link))
	api.Handle("/users/{pk}/", generics.RetrieveAPIView(users), framework.Named("user-detail"))
	api.Handle("/snippets/{pk}/", generics.RetrieveAPIView(link), framework.Named("snippet-detail"))
	return api
}

// The writable relational fields behind generic views, on SQLite and
// PostgreSQL, answer every input of drf_relations.py as DRF 3.14 does:
// the representation of the stored rows, the 400 of each invalid input
// in DRF's words (wrong type, no such row, null, blank, missing), the
// foreign keys a valid one stores, and OPTIONS.
func TestRelationalFieldsAsDRF(t *testing.T) {
	drf := loadRelations(t)
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		relTables(t, db)
		c := apitest.New(t, relAPI(t, db))
		kinds := []struct {
			path   string
			data   json.RawMessage
			info   json.RawMessage
			inputs map[string]drfResult
		}{
			{"/pk/", drf.PKData, drf.PKInfo, drf.PKErrors},
			{"/slug/", drf.SlugData, drf.SlugInfo, drf.SlugErrors},
			{"/link/", drf.LinkData, drf.LinkInfo, drf.LinkErrors},
		}
		// The stored rows first: the valid inputs add rows.
		for _, kind := range kinds {
			list := c.Get(kind.path)
			if list.Status != 200 || !sameJSON(t, []byte(list.Body), kind.data) {
				t.Errorf("GET %s: %d %s\nDRF: %s", kind.path, list.Status, list.Body, kind.data)
			}
		}
		for _, kind := range kinds {
			opts := c.Do("OPTIONS", kind.path, "")
			post, _ := json.Marshal(opts.JSON()["actions"].(map[string]any)["POST"])
			if !sameJSON(t, post, kind.info) {
				t.Errorf("OPTIONS %s: %s\nDRF: %s", kind.path, post, kind.info)
			}
			inputs := drfInputs(t, kind.path)
			for _, name := range sortedNames(kind.inputs) {
				want := kind.inputs[name]
				r := c.Post(kind.path, inputs[name], "Content-Type: application/json")
				if want.Errors != nil {
					if r.Status != 400 || !sameJSON(t, []byte(r.Body), want.Errors) {
						t.Errorf("POST %s %s %s: %d %s\nDRF: %s", kind.path, name, inputs[name], r.Status, r.Body, want.Errors)
					}
					continue
				}
				if r.Status != 201 {
					t.Errorf("POST %s %s %s: %d %s, DRF valid", kind.path, name, inputs[name], r.Status, r.Body)
					continue
				}
				var stored struct {
					Title    string `db:"title" json:"title"`
					Owner    int64  `db:"owner_id" json:"owner"`
					Reviewer *int64 `db:"reviewer_id" json:"reviewer"`
				}
				id := r.JSON()["id"]
				if err := db.Get(&stored, db.Rebind(`SELECT title, owner_id, reviewer_id FROM rel_snippet WHERE id = ?`), id); err != nil {
					t.Fatal(err)
				}
				got, _ := json.Marshal(stored)
				if !sameJSON(t, got, want.Valid) {
					t.Errorf("POST %s %s: stored %s, DRF validated %s", kind.path, name, got, want.Valid)
				}
			}
		}
	})
}

// drfInputs are drf_relations.py's inputs of the serializer at path, as
// JSON bodies by case.
func drfInputs(t *testing.T, path string) map[string]string {
	t.Helper()
	all := map[string]map[string]string{
		"/pk/": {
			"good":    `{"title": "t", "owner": 1, "reviewer": 2}`,
			"text":    `{"title": "t", "owner": "1", "reviewer": "2"}`,
			"missing": `{"title": "t", "owner": 99, "reviewer": "98"}`,
			"types":   `{"title": "t", "owner": "abc", "reviewer": true}`,
			"lists":   `{"title": "t", "owner": [1], "reviewer": {"a": 1}}`,
			"float":   `{"title": "t", "owner": 1.5, "reviewer": "1.5"}`,
			"nulls":   `{"title": "t", "owner": null, "reviewer": null}`,
			"blank":   `{"title": "t", "owner": "", "reviewer": ""}`,
			"empty":   `{}`,
		},
		"/slug/": {
			"good":    `{"title": "t", "owner": "ann", "reviewer": "bob"}`,
			"missing": `{"title": "t", "owner": "zed", "reviewer": "ANN"}`,
			"types":   `{"title": "t", "owner": 1, "reviewer": true}`,
			"lists":   `{"title": "t", "owner": ["ann"], "reviewer": {"a": 1}}`,
			"nulls":   `{"title": "t", "owner": null, "reviewer": null}`,
			"blank":   `{"title": "t", "owner": "", "reviewer": ""}`,
			"empty":   `{}`,
		},
		"/link/": {
			"good":       `{"title": "t", "owner": "http://testserver/users/1/", "reviewer": "/users/2/"}`,
			"missing":    `{"title": "t", "owner": "http://testserver/users/99/", "reviewer": "/users/98/"}`,
			"nomatch":    `{"title": "t", "owner": "http://testserver/nowhere/", "reviewer": "users/1/"}`,
			"wrongroute": `{"title": "t", "owner": "/snippets/1/", "reviewer": "http://other.host/snippets/1/"}`,
			"types":      `{"title": "t", "owner": 1, "reviewer": true}`,
			"lists":      `{"title": "t", "owner": ["/users/1/"], "reviewer": {"a": 1}}`,
			"nulls":      `{"title": "t", "owner": null, "reviewer": null}`,
			"blank":      `{"title": "t", "owner": "", "reviewer": ""}`,
			"escaped":    `{"title": "t", "owner": "/users/%31/", "reviewer": "http://testserver/users/2/?x=1#f"}`,
			"empty":      `{}`,
		},
	}
	return all[path]
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// A foreign key that names no row, written without the Related look-up
// (a serializer outside generic views), is refused by the database, and
// RelatedViolation words it as the field does: the primary key's message
// for a PrimaryKeyRelatedField, the hyperlink's for a
// HyperlinkedRelatedField.
func TestRelatedViolationWordsEachField(t *testing.T) {
	pk := serializers.MustNew[pkSnippet]()
	link := serializers.MustNew[linkSnippet]()
	slug := serializers.MustNew[slugSnippet]()
	for _, c := range []struct {
		err  error
		want string
	}{
		{pk.RelatedViolation("owner_id", "99"), `{"owner":["Invalid pk \"99\" - object does not exist."]}`},
		{pk.RelatedViolation("reviewer_id", "98"), `{"reviewer":["Invalid pk \"98\" - object does not exist."]}`},
		{link.RelatedViolation("owner_id", "99"), `{"owner":["Invalid hyperlink - Object does not exist."]}`},
		{slug.RelatedViolation("owner_id", "99"), `{"owner":["Invalid value."]}`},
		{pk.RelatedViolation("title", "x"), `{"title":["Invalid pk \"x\" - object does not exist."]}`},
	} {
		var api *exceptions.APIException
		if !errors.As(c.err, &api) {
			t.Errorf("RelatedViolation: %v, want %s", c.err, c.want)
			continue
		}
		if b, _ := json.Marshal(api.Detail); string(b) != c.want {
			t.Errorf("RelatedViolation: %s, want %s", b, c.want)
		}
	}
	if err := pk.RelatedViolation("nothing", "1"); err != nil {
		t.Errorf("RelatedViolation of a column no field holds: %v, want nil", err)
	}
}

// Models whose relational options cannot apply.
type (
	noJoin struct {
		ID    int64  `db:"id" json:"id"`
		Owner string `db:"owner" json:"owner" drf:"slug_related"`
	}
	noFK struct {
		ID    int64   `db:"id" json:"id"`
		Other relUser `json:"other"`
	}
	noReverse struct {
		ID       int64            `db:"id" json:"id"`
		Snippets []snippetSummary `json:"snippets"`
	}
	notNull struct {
		ID         int64  `db:"id" json:"id"`
		ReviewerID *int64 `db:"reviewer_id" json:"-" model:"foreign_key=rel_user,on_delete=set_null"`
		Reviewer   string `json:"reviewer" drf:"source=reviewer.username,slug_related"`
	}
)

func (noJoin) Meta() models.Meta    { return models.Meta{App: "snippets"} }
func (noFK) Meta() models.Meta      { return models.Meta{App: "snippets"} }
func (noReverse) Meta() models.Meta { return models.Meta{App: "snippets"} }
func (notNull) Meta() models.Meta   { return models.Meta{App: "snippets"} }

// A relational option where it cannot apply fails at setup, naming the
// field: slug_related without a foreign key behind its source, a nested
// struct of a model that names no foreign key, a nested list without
// its reverse accessor, a nullable foreign key's slug that cannot hold
// null.
func TestRelationalSetupErrors(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{errOf(serializers.New[noJoin]()), "noJoin.Owner: slug_related needs a dotted source through a foreign key"},
		{errOf(serializers.New[noFK]()), `noFK.Other: a nested serializers_test.relUser needs a foreign key of the model named "other"`},
		{errOf(serializers.New[noReverse]()), `noReverse.Snippets: a nested list of serializers_test.snippetSummary needs model:"reverse=TABLE.COLUMN"`},
		{errOf(serializers.New[notNull]()), "notNull.Reviewer: the foreign key reviewer_id may be null: the slug field must be a pointer"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("New: %v, want %q", c.err, c.want)
		}
	}
}

func errOf[V any](_ V, err error) error { return err }
