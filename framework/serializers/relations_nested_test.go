package serializers_test

import (
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
	"github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// readSnippet is drf_relations.py's ReadOnlys serializer: a
// StringRelatedField and a ReadOnlyField of the owner (dotted sources,
// read by a join) and the reviewer as a nested serializer (a struct
// named by its foreign key, read with one query per page).
type readSnippet struct {
	ID         int64    `db:"id" json:"id"`
	Title      string   `db:"title" json:"title" model:"max_length=100"`
	OwnerID    int64    `db:"owner_id" json:"-" model:"foreign_key=rel_user"`
	ReviewerID *int64   `db:"reviewer_id" json:"-" model:"foreign_key=rel_user,on_delete=set_null"`
	Owner      string   `json:"owner" drf:"source=owner.username"`
	OwnerEmail string   `json:"owner_email" drf:"source=owner.email"`
	Reviewer   nestUser `json:"reviewer"`
}

func (readSnippet) Meta() models.Meta { return models.Meta{App: "snippets", Table: "rel_snippet"} }

// nestUser is drf_relations.py's Owner serializer of a user.
type nestUser struct {
	ID       int64  `db:"id" json:"id"`
	Username string `db:"username" json:"username" model:"max_length=150,unique"`
	Email    string `db:"email" json:"email" model:"field=EmailField,blank" drf:"label=Email address"`
}

func (nestUser) Meta() models.Meta {
	return models.Meta{App: "auth", Table: "rel_user", Unmanaged: true}
}

// snippetSummary is drf_relations.py's SnippetSummary serializer.
type snippetSummary struct {
	ID    int64  `db:"id" json:"id"`
	Title string `db:"title" json:"title" model:"max_length=100"`
}

func (snippetSummary) Meta() models.Meta { return models.Meta{App: "snippets", Table: "rel_snippet"} }

// userNested is drf_relations.py's UserNested serializer: a user's
// snippets nested, many=True, through the reverse accessor.
type userNested struct {
	ID       int64            `db:"id" json:"id"`
	Username string           `db:"username" json:"username" model:"max_length=150,unique"`
	Snippets []snippetSummary `json:"snippets" model:"reverse=rel_snippet.owner_id"`
}

func (userNested) Meta() models.Meta {
	return models.Meta{App: "auth", Table: "rel_user", Unmanaged: true}
}

// userLinks is drf_relations.py's UserLinks serializer: the links of a
// user's snippets (HyperlinkedRelatedField(many=True, read_only=True));
// userKeys is the same with their keys (PrimaryKeyRelatedField).
type (
	userLinks struct {
		ID       int64   `db:"id" json:"id"`
		Username string  `db:"username" json:"username" model:"max_length=150,unique"`
		Snippets []int64 `json:"snippets" model:"reverse=rel_snippet.owner_id" drf:"view_name=snippet-detail,read_only"`
	}
	userKeys struct {
		ID       int64   `db:"id" json:"id"`
		Username string  `db:"username" json:"username" model:"max_length=150,unique"`
		Snippets []int64 `json:"snippets" model:"reverse=rel_snippet.owner_id" drf:"read_only"`
	}
)

func (userLinks) Meta() models.Meta {
	return models.Meta{App: "auth", Table: "rel_user", Unmanaged: true}
}
func (userKeys) Meta() models.Meta {
	return models.Meta{App: "auth", Table: "rel_user", Unmanaged: true}
}

// Nested serializers, read-only, one (a struct named by its foreign key)
// and many (a slice of structs through a reverse accessor), with a
// StringRelatedField and a ReadOnlyField of a dotted source, on SQLite
// and PostgreSQL: the representation and OPTIONS of drf_relations.py's
// ReadOnlys and UserNested (but for what Django's User model adds:
// help_text, and ReadOnlys' two-step source owner.snippets), and a page
// read with one query per relation, however many rows it holds.
func TestNestedSerializersAsDRF(t *testing.T) {
	drf := loadRelations(t)
	var extra struct {
		ReadOnlyData  []map[string]any          `json:"readonly_data"`
		UserNested    map[string]map[string]any `json:"usernested_info"`
		UserNestedOut json.RawMessage           `json:"usernested_data"`
	}
	drfsuite.RunDRF(t, framework.DRF314, "testdata/drf_relations.py", nil, &extra)
	readInfo := map[string]json.RawMessage{}
	for k, v := range drf.ReadOnlyInfo {
		if k != "snippets" {
			readInfo[k] = v
		}
	}
	for _, row := range extra.ReadOnlyData {
		delete(row, "snippets")
	}
	wantRead, _ := json.Marshal(extra.ReadOnlyData)
	wantReadInfo := withoutHelpText(t, readInfo)
	wantUserInfo := withoutHelpText(t, rawMap(t, extra.UserNested))

	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		relTables(t, db)
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/read/", generics.ListAPIView(generics.GenericAPIView[readSnippet]{
			Source: queryset.MustSQL[readSnippet](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[readSnippet]()}))
		api.Handle("/users/", generics.ListAPIView(generics.GenericAPIView[userNested]{
			Source: queryset.MustSQL[userNested](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[userNested]()}))
		api.Handle("/links/", generics.ListAPIView(generics.GenericAPIView[userLinks]{
			Source: queryset.MustSQL[userLinks](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[userLinks]()}))
		api.Handle("/keys/", generics.ListAPIView(generics.GenericAPIView[userKeys]{
			Source: queryset.MustSQL[userKeys](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[userKeys]()}))
		api.Handle("/snippets/{pk}/", generics.RetrieveAPIView(generics.GenericAPIView[snippetSummary]{
			Source: queryset.MustSQL[snippetSummary](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[snippetSummary]()}),
			framework.Named("snippet-detail"))
		c := apitest.New(t, api)
		for _, kind := range []struct {
			path string
			data json.RawMessage
		}{
			{"/read/", wantRead},
			{"/users/", extra.UserNestedOut},
			{"/links/", drf.UserLinksData},
			{"/keys/", []byte(`[{"id":1,"username":"ann","snippets":[1]},{"id":2,"username":"bob","snippets":[2]}]`)},
		} {
			queries()
			list := c.Get(kind.path)
			if n := queries(); list.Status != 200 || !sameJSON(t, []byte(list.Body), kind.data) || n != 2 {
				t.Errorf("GET %s: %d %s in %d queries\nDRF: %s in 2 (the page, the nested rows)", kind.path, list.Status, list.Body, n, kind.data)
			}
		}
		// A list view's OPTIONS has no POST: the serializers' FieldInfo.
		if got := serializers.MustNew[readSnippet]().FieldInfo(); !sameJSON(t, got, wantReadInfo) {
			t.Errorf("ReadOnlys OPTIONS: %s\nDRF: %s", got, wantReadInfo)
		}
		if got := serializers.MustNew[userNested]().FieldInfo(); !sameJSON(t, got, wantUserInfo) {
			t.Errorf("UserNested OPTIONS: %s\nDRF: %s", got, wantUserInfo)
		}
		// PrimaryKeyRelatedField(many=True, read_only=True), as ReadOnlys'
		// snippets, and HyperlinkedRelatedField(many=True, read_only=True).
		wantKeys := withoutHelpText(t, map[string]json.RawMessage{"id": drf.ReadOnlyInfo["id"],
			"username": rawMap(t, extra.UserNested)["username"], "snippets": drf.ReadOnlyInfo["snippets"]})
		if got := serializers.MustNew[userKeys]().FieldInfo(); !sameJSON(t, got, wantKeys) {
			t.Errorf("keys OPTIONS: %s\nDRF: %s", got, wantKeys)
		}
		if got, want := serializers.MustNew[userLinks]().FieldInfo(), withoutHelpText(t, rawMap(t, drf.UserLinks)); !sameJSON(t, got, want) {
			t.Errorf("UserLinks OPTIONS: %s\nDRF: %s", got, want)
		}
		// More rows, more users: still one query per relation per page.
		db.MustExec(`INSERT INTO "rel_user" ("username", "email") VALUES ('cy', ''), ('di', 'di@x.org')`)
		db.MustExec(`INSERT INTO "rel_snippet" ("title", "owner_id", "reviewer_id") VALUES ('a', 3, 4), ('b', 4, 3), ('c', 3, NULL), ('d', 1, 4)`)
		queries()
		users := c.Get("/users/")
		var got []userNested
		users.Decode(&got)
		if n := queries(); n != 2 || len(got) != 4 || len(got[2].Snippets) != 2 || got[2].Snippets[1].Title != "c" || len(got[0].Snippets) != 2 || got[0].Snippets[1].Title != "d" {
			t.Errorf("GET /users/ after more rows: %s in %d queries, want 2", users.Body, n)
		}
		read := c.Get("/read/")
		var rows []map[string]any
		read.Decode(&rows)
		if n := queries(); n != 2 || len(rows) != 6 || rows[2]["reviewer"].(map[string]any)["username"] != "di" || rows[4]["reviewer"] != nil {
			t.Errorf("GET /read/ after more rows: %s in %d queries, want 2", read.Body, n)
		}
	})
}

func withoutHelpText(t *testing.T, fields map[string]json.RawMessage) json.RawMessage {
	t.Helper()
	var strip func(v any)
	strip = func(v any) {
		if m, ok := v.(map[string]any); ok {
			delete(m, "help_text")
			for _, x := range m {
				strip(x)
			}
		}
	}
	out := map[string]any{}
	for k, v := range fields {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			t.Fatal(err)
		}
		strip(x)
		out[k] = x
	}
	b, _ := json.Marshal(out)
	return b
}

func rawMap(t *testing.T, m map[string]map[string]any) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for k, v := range m {
		out[k], _ = json.Marshal(v)
	}
	return out
}

// writtenSnippet writes the foreign keys as primary keys and reads the
// reviewer nested and the owner's username by a join.
type writtenSnippet struct {
	ID         int64    `db:"id" json:"id"`
	Title      string   `db:"title" json:"title" model:"max_length=100"`
	OwnerID    int64    `db:"owner_id" json:"owner" model:"foreign_key=rel_user"`
	ReviewerID *int64   `db:"reviewer_id" json:"reviewer" model:"foreign_key=rel_user,on_delete=set_null"`
	Reviewer   nestUser `json:"reviewer_detail" drf:"source=reviewer"`
	OwnerName  string   `json:"owner_name" drf:"source=owner.username"`
}

func (writtenSnippet) Meta() models.Meta { return models.Meta{App: "snippets", Table: "rel_snippet"} }

// The answer to a write shows the related rows of the row as written, as
// DRF's serializer.data after save(): the source reads the nested rows
// and the joins back with the row, on SQLite and PostgreSQL.
func TestNestedAfterWrites(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		relTables(t, db)
		api := framework.NewAPI(nil, framework.Settings{})
		g := generics.GenericAPIView[writtenSnippet]{Source: queryset.MustSQL[writtenSnippet](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[writtenSnippet]()}
		api.Handle("/w/", generics.ListCreateAPIView(g))
		api.Handle("/w/{pk}/", generics.RetrieveUpdateAPIView(g))
		c := apitest.New(t, api)
		for _, step := range []struct{ method, path, body, want string }{
			{"POST", "/w/", `{"title":"t","owner":1,"reviewer":2}`,
				`201 {"id":3,"title":"t","owner":1,"reviewer":2,"reviewer_detail":{"id":2,"username":"bob","email":"bob@x.org"},"owner_name":"ann"}`},
			{"PATCH", "/w/1/", `{"reviewer":null}`,
				`200 {"id":1,"title":"one","owner":1,"reviewer":null,"reviewer_detail":null,"owner_name":"ann"}`},
			{"PATCH", "/w/1/", `{"reviewer":1,"owner":2}`,
				`200 {"id":1,"title":"one","owner":2,"reviewer":1,"reviewer_detail":{"id":1,"username":"ann","email":"ann@x.org"},"owner_name":"bob"}`},
		} {
			r := c.Do(step.method, step.path, step.body, "Content-Type: application/json")
			if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
				t.Errorf("%s %s %s: %s, want %s", step.method, step.path, step.body, got, step.want)
			}
		}
	})
}
