package schemas_test

import (
	"encoding/json"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/internal/schematest"
)

// TestOperationSchema: a view's OperationSchema (extend_schema) names the
// serializer of a body the view validates itself, replaces and adds
// answers with examples, and leaves excluded operations out.
func TestOperationSchema(t *testing.T) {
	credentials := &framework.SerializerDescription{Model: "Login", Fields: []framework.FieldDescription{
		{Name: "username", Type: "string", Required: true, WriteOnly: true, MaxLength: -1, MinLength: -1},
		{Name: "password", Type: "string", Required: true, WriteOnly: true, MaxLength: -1, MinLength: -1},
	}}
	session := &framework.SerializerDescription{Model: "Session", Fields: []framework.FieldDescription{
		{Name: "key", Type: "string", ReadOnly: true, MaxLength: -1, MinLength: -1},
	}}
	answer := func(*framework.View, *request.Request) (*framework.Response, error) { return framework.OK(nil), nil }
	login := framework.View{Name: "Login", Post: answer, Delete: answer, Permissions: framework.Permissions(),
		Schema: map[string]framework.OperationSchema{
			"": {Tags: []string{"sessions"}},
			"POST": {Summary: "Log in", Request: credentials, Responses: map[int]framework.ResponseSchema{
				200: {Serializer: session, Examples: map[string]json.RawMessage{"alice": json.RawMessage(`{"key":"abc"}`)}},
				409: {Description: "Already logged in", Schema: json.RawMessage(`{"type":"object","properties":{"detail":{"type":"string"}}}`)},
			}},
			"DELETE": {Exclude: true},
		}}
	hidden := framework.View{Name: "Hidden", Get: answer, Schema: map[string]framework.OperationSchema{"": {Exclude: true}}}
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/login/", login)
	api.Handle("/hidden/", hidden)
	gen := &schemas.Generator{API: api}
	doc := document(t, gen, "")
	if _, ok := at(t, doc, "paths").(map[string]any)["/hidden/"]; ok {
		t.Error("an excluded view is in the document")
	}
	item := at(t, doc, "paths", "/login/").(map[string]any)
	if _, ok := item["delete"]; ok {
		t.Error("the excluded DELETE is in the document")
	}
	post := item["post"]
	for _, c := range [][2]string{
		{toJSON(t, at(t, post, "summary")), `"Log in"`},
		{toJSON(t, at(t, post, "tags")), `["sessions"]`},
		{toJSON(t, at(t, post, "requestBody", "content", "application/json", "schema")), `{"$ref":"#/components/schemas/Login"}`},
		{toJSON(t, at(t, post, "responses", "200")), `{"content":{"application/json":{"examples":{"alice":{"value":{"key":"abc"}}},"schema":{"$ref":"#/components/schemas/Session"}}},"description":"OK"}`},
		{toJSON(t, at(t, post, "responses", "400", "content", "application/json", "schema")), `{"anyOf":[{"$ref":"#/components/schemas/LoginValidationError"},{"$ref":"#/components/schemas/Error"}]}`},
		{toJSON(t, at(t, post, "responses", "409")), `{"content":{"application/json":{"schema":{"properties":{"detail":{"type":"string"}},"type":"object"}}},"description":"Already logged in"}`},
		{toJSON(t, at(t, doc, "components", "schemas", "LoginValidationError", "properties")),
			`{"non_field_errors":{"items":{"type":"string"},"type":"array"},"password":{"items":{"type":"string"},"type":"array"},"username":{"items":{"type":"string"},"type":"array"}}`},
	} {
		if c[0] != c[1] {
			t.Errorf("got  %s\nwant %s", c[0], c[1])
		}
	}
	b, err := json.Marshal(must(gen.Document("")))
	if err != nil {
		t.Fatal(err)
	}
	schematest.Validate(t, b)
}

func must(d *schemas.Document, err error) *schemas.Document {
	if err != nil {
		panic(err)
	}
	return d
}
