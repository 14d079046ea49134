package sample_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/schematest"
)

// openapi is the part of an OpenAPI document the tests read.
type openapi struct {
	Paths map[string]map[string]struct {
		Parameters []struct{ Name, In string }
	}
}

func readOpenAPI(t *testing.T, body string) openapi {
	t.Helper()
	var doc openapi
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	return doc
}

// TestSchema reads the sample's OpenAPI document from /schema/, checks it
// with the independent validator in YAML and in JSON, and finds every
// route of the contract with its methods and parameters.
func TestSchema(t *testing.T) {
	c := serve(t, newDB(t))
	r := c.Get("/schema/")
	status, yaml := r.Status, r.Body
	if status != http.StatusOK || !strings.HasPrefix(yaml, "openapi: \"3.1.0\"\n") {
		t.Fatalf("/schema/: %d\n%s", status, yaml)
	}
	schematest.Validate(t, []byte(yaml))
	r = c.Get("/schema/", "Accept: application/vnd.oai.openapi+json")
	status, body := r.Status, r.Body
	if status != http.StatusOK {
		t.Fatalf("/schema/ as JSON: %d %s", status, body)
	}
	schematest.Validate(t, []byte(body))
	doc := readOpenAPI(t, body)

	// path → "METHOD:in:name,..." for each method, in document order.
	want := map[string][]string{
		"/api-token-auth/":           {"post:"},
		"/api-token-auth-extra/":     {"post:"},
		"/api-token-auth-throttled/": {"post:"},
		"/whoami/":                   {"get:"},
		"/auth/token-first/":         {"get:"},
		"/auth/basic-first/":         {"get:"},
		"/auth/session-first/":       {"get:"},
		"/auth/header/":              {"get:"},
		"/auth/header-challenge/":    {"get:"},
		"/auth/admin-only/":          {"get:"},
		"/auth/remote-user/":         {"get:"},
		"/auth/csrf/":                {"post:"},
		"/books/":                    {"get:query:page", "post:"},
		"/books/{pk}/":               {"delete:path:pk", "get:path:pk", "patch:path:pk", "put:path:pk"},
		"/books/{pk}/cover/":         {"get:path:pk", "patch:path:pk", "put:path:pk"},
		"/pages/page-number/":        {"get:query:page,query:page_size"},
		"/pages/limit-offset/":       {"get:query:limit,query:offset"},
		"/pages/cursor/":             {"get:query:cursor,query:page_size"},
		"/pages/cursor-rating/":      {"get:query:cursor"},
		"/pages/cursor-orderable/":   {"get:query:cursor,query:ordering"},
		"/pages/off/":                {"get:"},
		"/pages/manual/":             {"get:query:page"},
		"/pages/link-header/":        {"get:query:page"},
		"/pages/nested-links/":       {"get:query:page"},
		"/url/{version}/info/":       {"get:path:version"},
		"/ns/v1/info/":               {"get:"},
		"/ns/v2/info/":               {"get:"},
		"/ns/{other}/info/":          {"get:path:other"},
		"/query/info/":               {"get:query:version"},
		"/accept/info/":              {"get:"},
		"/host/info/":                {"get:"},
		"/custom/info/":              {"get:"},
		"/url/{version}/books/":      {"get:path:version,query:page"},
		"/url/{version}/books/{pk}/": {"get:path:version,path:pk"},
		// Beyond the contract: the opt-in features.
		"/beyond/pages/keyset/":             {"get:query:cursor,query:page_size"},
		"/beyond/pages/estimated/":          {"get:query:page"},
		"/beyond/pages/no-count/":           {"get:query:limit,query:offset"},
		"/beyond/devices/login/":            {"post:"},
		"/beyond/devices/logout/":           {"post:"},
		"/beyond/devices/logoutall/":        {"post:"},
		"/beyond/devices/tokens/":           {"get:"},
		"/beyond/devices/tokens/{id}/":      {"delete:path:id"},
		"/beyond/auth/bearer/":              {"get:"},
		"/beyond/auth/session-401/":         {"get:"},
		"/beyond/url/{version}/resolve/":    {"get:path:version"},
		"/beyond/ratelimit/":                {"get:"},
		"/beyond/books/":                    {"get:query:page", "post:"},
		"/beyond/books/{id}/":               {"delete:path:id", "get:path:id", "patch:path:id", "put:path:id"},
		"/beyond/problems/books/":           {"get:query:page", "post:"},
		"/beyond/problems/books/{pk}/":      {"delete:path:pk", "get:path:pk", "patch:path:pk", "put:path:pk"},
		"/beyond/url/{version}/books/":      {"get:path:version,query:page"},
		"/beyond/url/{version}/books/{pk}/": {"get:path:version,path:pk"},
		// Ecosystem routes.
		"/eco/jwt/token/":           {"post:"},
		"/eco/jwt/token/refresh/":   {"post:"},
		"/eco/jwt/token/verify/":    {"post:"},
		"/eco/jwt/token/blacklist/": {"post:"},
		"/eco/jwt/whoami/":          {"get:"},
		"/eco/books/": {"get:query:page,query:rating,query:rating__gte,query:rating__lte,query:rating__in,query:title,query:title__icontains," +
			"query:author,query:author__in,query:created__gte,query:created__lte,query:owner__username,query:created__date,query:ordering,query:search"},
		"/eco/api-key/books/":    {"get:query:page"},
		"/eco/perms/books/":      {"get:query:page", "post:"},
		"/eco/perms/books/{pk}/": {"delete:path:pk", "get:path:pk", "patch:path:pk", "put:path:pk"},
	}
	for path, ops := range doc.Paths {
		var got []string
		for method, op := range ops {
			var params []string
			for _, p := range op.Parameters {
				params = append(params, p.In+":"+p.Name)
			}
			got = append(got, method+":"+strings.Join(params, ","))
		}
		slices.Sort(got)
		if w, ok := want[path]; !ok {
			t.Errorf("the document has %s, which is no route of the contract", path)
		} else if !slices.Equal(got, w) {
			t.Errorf("%s: %v, want %v", path, got, w)
		}
	}
	if !strings.Contains(body, `"usernameHeader": {`) || !strings.Contains(body, `"usernameHeader": []`) {
		t.Error("the custom X-Username scheme is not documented")
	}
	for path := range want {
		if _, ok := doc.Paths[path]; !ok {
			t.Errorf("the document lacks %s", path)
		}
	}
}

// TestSchemaVersions checks the documents of each version: URL versions
// substituted, other namespaces left out, an unknown version refused.
func TestSchemaVersions(t *testing.T) {
	c := serve(t, newDB(t))
	r := c.Get("/schema/?version=v2&format=openapi-json")
	status, body := r.Status, r.Body
	if status != http.StatusOK {
		t.Fatalf("v2: %d %s", status, body)
	}
	schematest.Validate(t, []byte(body))
	doc := readOpenAPI(t, body)
	for _, p := range []string{"/url/v2/books/", "/url/v2/books/{pk}/", "/ns/v2/info/", "/query/info/", "/books/"} {
		if _, ok := doc.Paths[p]; !ok {
			t.Errorf("the v2 document lacks %s", p)
		}
	}
	for _, p := range []string{"/url/{version}/books/", "/ns/v1/info/", "/ns/{other}/info/"} {
		if _, ok := doc.Paths[p]; ok {
			t.Errorf("the v2 document has %s", p)
		}
	}
	if !strings.Contains(body, `"url": {`) {
		t.Error("the v2 document lacks the v2 serializer's url field")
	}
	if r := c.Get("/schema/?version=v9"); r.Status != http.StatusNotFound || !strings.Contains(r.Body, "Invalid version in query parameter.") {
		t.Errorf("v9: %d %s", r.Status, r.Body)
	}
}
