package sample_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/go-drf/drf/internal/schematest"
)

const aliceBasic = "Authorization: Basic YWxpY2U6YWxpY2UtcGFzcw=="

// TestBeyondProblems: the errors of /beyond/problems/ are problem details
// (RFC 9457); the same viewset at /books/ keeps DRF's bodies.
func TestBeyondProblems(t *testing.T) {
	c := serve(t, newDB(t))
	cases := []struct {
		method, path, body string
		header             []string
		status             int
		want               string
	}{
		{"GET", "/beyond/problems/books/999/", "", nil, 404,
			`{"type":"about:blank","title":"Not Found","status":404,"detail":"No Book matches the given query.","instance":"/beyond/problems/books/999/","code":"not_found"}`},
		{"POST", "/beyond/problems/books/", `{"author":"A","rating":9}`, []string{aliceBasic}, 400,
			`{"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid input.","instance":"/beyond/problems/books/","code":"invalid","errors":{"title":["This field is required."],"rating":["Ensure this value is less than or equal to 5."]}}`},
		{"POST", "/beyond/problems/books/", `{"title":"T","author":"A","rating":1}`, nil, 403,
			`{"type":"about:blank","title":"Forbidden","status":403,"detail":"Authentication credentials were not provided.","instance":"/beyond/problems/books/","code":"not_authenticated"}`},
		{"DELETE", "/beyond/problems/books/", "", []string{aliceBasic}, 405,
			`{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"Method \"DELETE\" not allowed.","instance":"/beyond/problems/books/","code":"method_not_allowed"}`},
	}
	for _, tc := range cases {
		r := c.Do(tc.method, tc.path, tc.body, tc.header...)
		if r.Status != tc.status || r.Header.Get("Content-Type") != "application/problem+json" || r.Body != tc.want {
			t.Errorf("%s %s: %d %s\n%s\nwant %d\n%s", tc.method, tc.path, r.Status, r.Header.Get("Content-Type"), r.Body, tc.status, tc.want)
		}
	}
	if r := c.Get("/beyond/problems/books/1/"); r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("a book: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	if r := c.Get("/books/999/"); r.Status != http.StatusNotFound || r.Header.Get("Content-Type") != "application/json" || r.Body != `{"detail":"No Book matches the given query."}` {
		t.Errorf("/books/999/: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
}

// TestBeyondDeprecation: /beyond/url/v1/books/ announces v1's deprecation
// and sunset on every answer, and links the same page in v2; v2 does not.
func TestBeyondDeprecation(t *testing.T) {
	c := serve(t, newDB(t))
	for path, successor := range map[string]string{
		"/beyond/url/v1/books/?page=2": "<http://testserver/beyond/url/v2/books/?page=2>; rel=\"successor-version\"",
		"/beyond/url/v1/books/3/":      "<http://testserver/beyond/url/v2/books/3/>; rel=\"successor-version\"",
		"/beyond/url/v1/books/999/":    "<http://testserver/beyond/url/v2/books/999/>; rel=\"successor-version\"",
	} {
		r := c.Get(path)
		if r.Header.Get("Deprecation") != "@1767225600" || r.Header.Get("Sunset") != "Fri, 31 Dec 2027 23:59:59 GMT" || r.Header.Get("Link") != successor {
			t.Errorf("%s: %d %v", path, r.Status, r.Header)
		}
	}
	r := c.Get("/beyond/url/v2/books/3/")
	if r.Status != http.StatusOK || r.Header.Get("Deprecation") != "" || r.Header.Get("Sunset") != "" || r.Header.Get("Link") != "" {
		t.Errorf("v2: %d %v", r.Status, r.Header)
	}
	if r := c.Get("/beyond/url/v1/books/3/"); r.Status != http.StatusOK || r.Body != `{"id":3,"title":"Book 003"}` {
		t.Errorf("v1 body: %d %s", r.Status, r.Body)
	}
	// v1's document marks the operations deprecated, with the fields.
	var doc struct {
		Paths map[string]map[string]struct {
			Deprecated bool `json:"deprecated"`
			Responses  map[string]struct {
				Headers map[string]json.RawMessage `json:"headers"`
			} `json:"responses"`
		} `json:"paths"`
	}
	for version, deprecated := range map[string]bool{"v1": true, "v2": false} {
		r := c.Get("/schema/?format=openapi-json&version=" + version)
		schematest.Validate(t, []byte(r.Body))
		r.Decode(&doc)
		op := doc.Paths["/beyond/url/"+version+"/books/{pk}/"]["get"]
		h := op.Responses["200"].Headers
		if op.Deprecated != deprecated || (h["Sunset"] != nil) != deprecated || (h["Deprecation"] != nil) != deprecated || (h["Link"] != nil) != deprecated ||
			(op.Responses["404"].Headers["Sunset"] != nil) != deprecated {
			t.Errorf("%s document: deprecated %v, headers %v", version, op.Deprecated, h)
		}
		if op := doc.Paths["/url/"+version+"/books/{pk}/"]["get"]; op.Deprecated {
			t.Errorf("%s: /url/%s/books/{pk}/ is deprecated", version, version)
		}
	}
}

// TestBeyondProblemsDocumented: the document describes the problem answers
// of /beyond/problems/ as application/problem+json, and each answer is
// valid against it.
func TestBeyondProblemsDocumented(t *testing.T) {
	c := serve(t, newDB(t))
	doc := c.Get("/schema/?format=openapi-json")
	whole, err := jsonschema.UnmarshalJSON(strings.NewReader(doc.Body))
	if err != nil {
		t.Fatal(err)
	}
	const docURL = "https://sample.invalid/openapi.json"
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	if err := compiler.AddResource(docURL, whole); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ method, path, template, body, header string }{
		{"GET", "/beyond/problems/books/999/", "/beyond/problems/books/{pk}/", "", "Accept: application/json"},
		{"POST", "/beyond/problems/books/", "/beyond/problems/books/", `{"rating":9}`, aliceBasic},
		{"POST", "/beyond/problems/books/", "/beyond/problems/books/", `{"title":"T","author":"A","rating":1}`, "Accept: application/json"},
		{"GET", "/beyond/problems/books/", "/beyond/problems/books/", "", "Accept: text/csv"},
	} {
		r := c.Do(tc.method, tc.path, tc.body, tc.header)
		pointer := "/paths/" + strings.ReplaceAll(tc.template, "/", "~1") + "/" + strings.ToLower(tc.method) +
			"/responses/" + strconv.Itoa(r.Status) + "/content/application~1problem+json/schema"
		sch, err := compiler.Compile(docURL + "#" + pointer)
		if err != nil {
			t.Errorf("%s %s: %d is not documented as a problem: %v", tc.method, tc.path, r.Status, err)
			continue
		}
		body, err := jsonschema.UnmarshalJSON(strings.NewReader(r.Body))
		if err == nil {
			err = sch.Validate(body)
		}
		if err != nil || r.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s %s: %d %s breaks the document: %v\n%s", tc.method, tc.path, r.Status, r.Header.Get("Content-Type"), err, r.Body)
		}
	}
	if strings.Contains(doc.Body, `"/books/{pk}/": {`) && !strings.Contains(doc.Body, `"application/json": {`) {
		t.Error("the other routes' errors lost their application/json")
	}
}
