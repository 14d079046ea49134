package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// document is the part of the sample's OpenAPI document the replay reads.
type document struct {
	Paths map[string]map[string]struct {
		Responses map[string]struct {
			Content map[string]json.RawMessage `json:"content"`
		} `json:"responses"`
	} `json:"paths"`
}

// docURL names the document among the compiler's resources.
const docURL = "https://sample.invalid/openapi.json"

// TestOpenAPITrue replays the conformance table against the sample alone
// and holds every answer to the sample's own OpenAPI document: the status
// must be one the operation documents, and a JSON body must be valid
// against the operation's schema for that status and media type (JSON
// Schema 2020-12, as OpenAPI 3.1 has it). Rows of routes or methods the
// document does not describe (the login pages, OPTIONS, 405s) are left
// out; the other rows' count is logged.
func TestOpenAPITrue(t *testing.T) {
	base := startSample(t, filepath.Join(t.TempDir(), "db.sqlite3"))
	s := newSide("sample", base)
	resp, err := http.Get(base + "/schema/?format=openapi-json")
	if err != nil {
		t.Fatal(err)
	}
	raw := new(bytes.Buffer)
	_, _ = raw.ReadFrom(resp.Body)
	resp.Body.Close()
	var doc document
	if err := json.Unmarshal(raw.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	whole, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	if err := compiler.AddResource(docURL, whole); err != nil {
		t.Fatal(err)
	}
	// Path templates as patterns, literal ones first ("/ns/v1/info/"
	// before "/ns/{other}/info/").
	type template struct {
		path string
		re   *regexp.Regexp
	}
	var templates []template
	for p := range doc.Paths {
		re := regexp.MustCompile("^" + regexp.MustCompile(`\\\{[^/]+\\\}`).ReplaceAllString(regexp.QuoteMeta(p), "[^/]+") + "$")
		templates = append(templates, template{p, re})
	}
	slices.SortFunc(templates, func(a, b template) int {
		return strings.Count(a.path, "{") - strings.Count(b.path, "{")
	})
	checked := 0
	for i, r := range table {
		target, err := s.targetOf(r)
		if err != nil {
			t.Fatalf("row %d %s: %v", i+1, r.name, err)
		}
		a, err := s.send(r)
		if err != nil {
			t.Fatalf("row %d %s: %v", i+1, r.name, err)
		}
		u, err := url.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		at := slices.IndexFunc(templates, func(tp template) bool { return tp.re.MatchString(u.Path) })
		method := strings.ToLower(r.verb())
		if method == "head" {
			method = "get"
		}
		if at < 0 {
			continue
		}
		path := templates[at].path
		op, ok := doc.Paths[path][method]
		if !ok {
			continue
		}
		checked++
		where := fmt.Sprintf("row %d %s (%s %s, %s %s)", i+1, r.name, r.verb(), r.target(), method, path)
		status := fmt.Sprint(a.status)
		res, ok := op.Responses[status]
		if !ok {
			t.Errorf("%s: %d is not documented (%s)", where, a.status, a.body)
			continue
		}
		if r.verb() == http.MethodHead || len(a.body) == 0 {
			continue
		}
		mediaType, _, _ := strings.Cut(a.header.Get("Content-Type"), ";")
		if _, ok := res.Content[mediaType]; !ok {
			if strings.Contains(mediaType, "json") {
				t.Errorf("%s: %d %s is not documented", where, a.status, mediaType)
			}
			continue
		}
		pointer := "/paths/" + escape(path) + "/" + method + "/responses/" + status + "/content/" + escape(mediaType) + "/schema"
		sch, err := compiler.Compile(docURL + "#" + pointer)
		if err != nil {
			t.Fatalf("%s: compiling %s: %v", where, pointer, err)
		}
		body, err := jsonschema.UnmarshalJSON(bytes.NewReader(a.body))
		if err != nil {
			t.Errorf("%s: the body is not JSON: %v\n%s", where, err, a.body)
			continue
		}
		if err := sch.Validate(body); err != nil {
			t.Errorf("%s: %d body breaks the document: %v\n%s", where, a.status, err, a.body)
		}
	}
	t.Logf("%d of %d rows checked against the document", checked, len(table))
	if checked < len(table)/2 {
		t.Errorf("only %d rows were described by the document", checked)
	}
}

// escape is a JSON Pointer token (RFC 6901).
func escape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
