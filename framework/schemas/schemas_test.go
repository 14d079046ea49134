package schemas_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/throttling"
	"github.com/go-drf/drf/framework/versioning"
	"github.com/go-drf/drf/internal/schematest"
)

// Note is the model of the tests.
type Note struct {
	ID     int64    `db:"id" json:"id" drf:"read_only"`
	Text   string   `db:"text" json:"text" drf:"required,max_length=200"`
	Stars  int      `db:"stars" json:"stars" drf:"min_value=0,max_value=5"`
	Weight *float64 `db:"weight" json:"weight" drf:"allow_null"`
	Secret string   `db:"secret" json:"secret" drf:"write_only"`
	Done   bool     `db:"done" json:"done"`
}

// api is a small API: a model viewset with session, token and Basic
// authentication, a cursor-paginated list with ordering and search, a
// query-versioned view, a plain view, and the schema view.
// The stores of the schemes the schema describes, which find no one.
type (
	noTokens   struct{}
	noUsers    struct{}
	noSessions struct{}
)

func (noTokens) LookupToken(context.Context, string) (request.User, any, error)     { return nil, nil, nil }
func (noUsers) CheckPassword(context.Context, string, string) (request.User, error) { return nil, nil }
func (noSessions) SessionUser(*http.Request) (request.User, error)                  { return nil, nil }
func (noSessions) EnforceCSRF(*request.Request) error                               { return nil }

func api(t *testing.T) (*schemas.Generator, *framework.API) {
	t.Helper()
	api := framework.NewAPI(nil, framework.Settings{
		Authentication: framework.Authenticators(authentication.Session{Sessions: noSessions{}}, authentication.Token{Tokens: noTokens{}}, authentication.Basic{Users: noUsers{}}),
		Pagination:     &pagination.PageNumberPagination{PageSizeQueryParam: "page_size"},
		PageSize:       10,
		ThrottleRates:  map[string]string{"anon": "100/minute"},
	})
	src := queryset.MustSlice([]Note{{ID: 1, Text: "one"}})
	ser := serializers.MustNew[Note]()
	vs := &generics.ModelViewSet[Note]{}
	vs.Source, vs.Serializer = src, ser
	keep := func(*request.Request, *Note) error { return nil }
	vs.PerformCreate, vs.PerformUpdate, vs.PerformDestroy = keep, keep, keep
	vs.Permissions = framework.Permissions(framework.IsAuthenticatedOrReadOnly{})
	vs.Throttles = framework.Throttles(throttling.AnonRateThrottle())
	var router routers.SimpleRouter
	router.Register("notes", vs, "note")
	router.Mount(api)
	api.Handle("/recent/", generics.ListAPIView(generics.GenericAPIView[Note]{
		View: framework.View{Name: "Recent Notes", Description: "The latest notes first.",
			Pagination: &pagination.CursorPagination{Ordering: []string{"-id"}}},
		Source: src, Serializer: ser,
		FilterBackends: framework.FilterBackends(filters.OrderingFilter{Fields: []string{"id"}}, filters.SearchFilter{Fields: []string{"text"}}),
	}))
	api.Handle("/version/", framework.View{Name: "Version",
		Versioning: versioning.QueryParameterVersioning{}, DefaultVersion: "v1",
		AllowedVersions: framework.Versions("v1", "v2"),
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(r.Version()), nil
		}})
	api.Handle("/echo/", framework.View{Name: "Echo", Authentication: framework.Authenticators(),
		Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			return framework.OK(nil), nil
		}})
	gen := &schemas.Generator{Info: schemas.Info{Title: "Notes"}, API: api}
	schema := gen.View()
	schema.Authentication = framework.Authenticators() // the test's schemes have no stores
	api.Handle("/schema/", schema)
	return gen, api
}

func document(t *testing.T, gen *schemas.Generator, version string) map[string]any {
	t.Helper()
	doc, err := gen.Document(version)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// at follows a path of keys through decoded JSON.
func at(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for i, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s is not an object: %v", strings.Join(keys[:i], "."), v)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("no %s in %s", k, strings.Join(keys[:i], "."))
		}
	}
	return v
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func paramNames(t *testing.T, op any) []string {
	var names []string
	ps, _ := at(t, op, "parameters").([]any)
	for _, p := range ps {
		names = append(names, at(t, p, "in").(string)+":"+at(t, p, "name").(string))
	}
	return names
}

func TestDocument(t *testing.T) {
	gen, _ := api(t)
	doc := document(t, gen, "")
	if got := at(t, doc, "openapi"); got != "3.1.0" {
		t.Errorf("openapi %v", got)
	}
	if got := toJSON(t, at(t, doc, "info")); got != `{"title":"Notes","version":"1.0.0"}` {
		t.Errorf("info %s", got)
	}
	// The serializer's fields as JSON Schema.
	note := toJSON(t, at(t, doc, "components", "schemas", "Note"))
	want := `{"properties":{"done":{"type":"boolean"},"id":{"readOnly":true,"type":"integer"},"secret":{"type":"string","writeOnly":true},` +
		`"stars":{"maximum":5,"minimum":0,"type":"integer"},"text":{"maxLength":200,"type":"string"},"weight":{"format":"double","type":["number","null"]}},"required":["text"],"type":"object"}`
	if note != want {
		t.Errorf("Note schema\n got %s\nwant %s", note, want)
	}
	if got := toJSON(t, at(t, doc, "components", "schemas", "PatchedNote")); strings.Contains(got, "required") {
		t.Errorf("PatchedNote requires fields: %s", got)
	}
	list := at(t, doc, "paths", "/notes/", "get")
	if got := at(t, list, "operationId"); got != "listNotes" {
		t.Errorf("list operationId %v", got)
	}
	if got := strings.Join(paramNames(t, list), " "); got != "query:page query:page_size" {
		t.Errorf("list parameters %s", got)
	}
	envelope := toJSON(t, at(t, list, "responses", "200", "content", "application/json", "schema"))
	for _, w := range []string{`"count":{"example":123,"type":"integer"}`, `"next":{"example":"http://api.example.org/accounts/?page=4","format":"uri","type":["string","null"]}`,
		`"results":{"items":{"$ref":"#/components/schemas/Note"},"type":"array"}`, `"required":["count","results"]`} {
		if !strings.Contains(envelope, w) {
			t.Errorf("the paginated envelope lacks %s: %s", w, envelope)
		}
	}
	// Writes: bodies by parser, created answers, errors, security.
	create := at(t, doc, "paths", "/notes/", "post")
	if got := toJSON(t, at(t, create, "requestBody", "content", "multipart/form-data", "schema")); got != `{"$ref":"#/components/schemas/Note"}` {
		t.Errorf("create body %s", got)
	}
	// A 400 is the serializer's messages by field, or the parser's detail.
	if got := toJSON(t, at(t, create, "responses", "400", "content", "application/json", "schema")); got != `{"anyOf":[{"$ref":"#/components/schemas/NoteValidationError"},{"$ref":"#/components/schemas/Error"}]}` {
		t.Errorf("create 400 %s", got)
	}
	messages := `{"items":{"type":"string"},"type":"array"}`
	if got, want := toJSON(t, at(t, doc, "components", "schemas", "NoteValidationError", "properties")),
		`{"done":`+messages+`,"non_field_errors":`+messages+`,"secret":`+messages+`,"stars":`+messages+`,"text":`+messages+`,"weight":`+messages+`}`; got != want {
		t.Errorf("NoteValidationError\n got %s\nwant %s", got, want)
	}
	for _, code := range []string{"201", "400", "403", "406", "415", "429"} {
		at(t, create, "responses", code)
	}
	if got := toJSON(t, at(t, create, "security")); got != `[{"cookieAuth":[],"csrfToken":[]},{"tokenAuth":[]},{"basicAuth":[]}]` {
		t.Errorf("create security %s (anonymous users may not create)", got)
	}
	if got := toJSON(t, at(t, list, "security")); got != `[{"cookieAuth":[]},{"tokenAuth":[]},{"basicAuth":[]},{}]` {
		t.Errorf("list security %s (anyone may read)", got)
	}
	schemes := toJSON(t, at(t, doc, "components", "securitySchemes"))
	for _, w := range []string{`"basicAuth":{"scheme":"basic","type":"http"}`, `"tokenAuth":{"description":"Token-based authentication with required prefix \"Token\"","in":"header","name":"Authorization","type":"apiKey"}`,
		`"in":"cookie","name":"sessionid","type":"apiKey"}`, `"in":"header","name":"X-CSRFToken","type":"apiKey"}`} {
		if !strings.Contains(schemes, w) {
			t.Errorf("security schemes lack %s: %s", w, schemes)
		}
	}
	detail := at(t, doc, "paths", "/notes/{pk}/")
	if got := toJSON(t, at(t, detail, "get", "parameters")); got != `[{"description":"A unique integer value identifying this note.","in":"path","name":"pk","required":true,"schema":{"type":"integer"}}]` {
		t.Errorf("detail parameters %s", got)
	}
	if got := toJSON(t, at(t, detail, "patch", "requestBody", "content", "application/json", "schema")); got != `{"$ref":"#/components/schemas/PatchedNote"}` {
		t.Errorf("patch body %s", got)
	}
	if got := toJSON(t, at(t, detail, "delete", "responses", "204")); got != `{"description":"No Content"}` {
		t.Errorf("delete 204 %s", got)
	}
	at(t, detail, "get", "responses", "404")
	// Cursor pagination, ordering and search.
	recent := at(t, doc, "paths", "/recent/", "get")
	if got := strings.Join(paramNames(t, recent), " "); got != "query:cursor query:ordering query:search" {
		t.Errorf("cursor list parameters %s", got)
	}
	if got := at(t, recent, "description"); got != "The latest notes first." {
		t.Errorf("description %v", got)
	}
	if got := toJSON(t, at(t, recent, "responses", "200", "content", "application/json", "schema", "required")); got != `["results"]` {
		t.Errorf("cursor envelope requires %s", got)
	}
	// Query-parameter versioning.
	version := at(t, doc, "paths", "/version/", "get")
	if got := toJSON(t, at(t, version, "parameters")); !strings.Contains(got, `"in":"query","name":"version","required":false`) || !strings.Contains(got, `"enum":["v1","v2"]`) {
		t.Errorf("version parameters %s", got)
	}
	if paths := at(t, doc, "paths").(map[string]any); paths["/schema/"] != nil || len(paths) != 5 {
		t.Errorf("paths %v: want the four routes and the viewset's detail, without the schema view", paths)
	}
	// A plain view: a body of any shape, no security when it has no schemes.
	echo := at(t, doc, "paths", "/echo/", "post")
	if got := toJSON(t, echo); strings.Contains(got, "security") || !strings.Contains(got, `"operationId":"createEcho"`) {
		t.Errorf("echo %s", got)
	}
}

func TestVersionDocuments(t *testing.T) {
	gen, _ := api(t)
	if got := strings.Join(gen.Versions(), " "); got != "v1 v2" {
		t.Fatalf("versions %s", got)
	}
	doc := document(t, gen, "v2")
	if got := at(t, doc, "info", "version"); got != "v2" {
		t.Errorf("info.version %v", got)
	}
	if got := toJSON(t, at(t, doc, "paths", "/version/", "get", "parameters")); !strings.Contains(got, `"enum":["v2"]`) {
		t.Errorf("v2 version parameter %s", got)
	}
	if _, err := gen.Document("v3"); err != nil {
		t.Fatal(err)
	}
	if paths := at(t, document(t, gen, "v3"), "paths").(map[string]any); paths["/version/"] != nil || paths["/notes/"] == nil {
		t.Errorf("the v3 document has the routes %v; want the unversioned ones only", paths)
	}
}

// TestValidates checks the document, in JSON and in YAML, with the
// independent validator, and that the YAML reads back as the JSON.
func TestValidates(t *testing.T) {
	gen, api := api(t)
	for _, c := range []struct{ accept, format string }{
		{"application/vnd.oai.openapi", ""}, {"", "openapi-json"}, {"application/json", ""},
	} {
		req := httptest.NewRequest(http.MethodGet, "/schema/?format="+c.format, nil)
		if c.format == "" {
			req = httptest.NewRequest(http.MethodGet, "/schema/", nil)
		}
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		w := httptest.NewRecorder()
		api.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", c.accept, c.format, w.Code, w.Body)
		}
		schematest.Validate(t, w.Body.Bytes())
	}
	w := httptest.NewRecorder()
	api.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/schema/", nil))
	if ct := w.Header().Get("Content-Type"); ct != "application/vnd.oai.openapi; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	doc, err := gen.Document("")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(doc)
	// The validator can say no: an operation without its answers is invalid.
	broken := bytes.Replace(want, []byte(`"responses":`), []byte(`"answers":`), 1)
	if schematest.Check(t, broken) == nil {
		t.Error("the validator accepts an operation without responses")
	}
	got := schematest.YAMLToJSON(t, w.Body.Bytes())
	var a, b any
	_ = json.Unmarshal(want, &a)
	_ = json.Unmarshal(got, &b)
	if toJSON(t, a) != toJSON(t, b) {
		t.Errorf("the YAML reads back differently:\n%s\n%s", want, bytes.TrimSpace(got))
	}
}

// A list whose view sets no filter backends documents the parameters of
// the settings' (DEFAULT_FILTER_BACKENDS).
func TestDefaultFilterBackendsDocumented(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{
		FilterBackends: framework.FilterBackends(filters.SearchFilter{Fields: []string{"text"}}),
	})
	api.Handle("/notes/", generics.ListAPIView(generics.GenericAPIView[Note]{
		Source: queryset.MustSlice([]Note{{ID: 1, Text: "one"}}), Serializer: serializers.MustNew[Note](),
	}))
	doc := document(t, &schemas.Generator{Info: schemas.Info{Title: "Notes"}, API: api}, "")
	params, _ := at(t, doc, "paths", "/notes/", "get", "parameters").([]any)
	var names []string
	for _, p := range params {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	if !slices.Contains(names, "search") {
		t.Errorf("the list's parameters %v lack search", names)
	}
}
