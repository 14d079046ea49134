package schemas

import (
	"net/http"
	"slices"
	"sync"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/versioning"
	"github.com/go-drf/drf/internal/rawjson"
)

// OpenAPIRenderer renders a Document as YAML (DRF's OpenAPIRenderer):
// application/vnd.oai.openapi, ?format=openapi.
type OpenAPIRenderer struct{}

// MediaType returns "application/vnd.oai.openapi".
func (OpenAPIRenderer) MediaType() string { return "application/vnd.oai.openapi" }

// Format returns "openapi".
func (OpenAPIRenderer) Format() string { return "openapi" }

// Charset returns "utf-8".
func (OpenAPIRenderer) Charset() string { return "utf-8" }

// Render renders data, a Document or any JSON value, as YAML.
func (OpenAPIRenderer) Render(data any, _ *framework.RenderContext) ([]byte, error) {
	b, err := marshal(data)
	if err != nil {
		return nil, err
	}
	return toYAML(b)
}

// JSONOpenAPIRenderer renders a Document as JSON (DRF's
// JSONOpenAPIRenderer): application/vnd.oai.openapi+json,
// ?format=openapi-json.
type JSONOpenAPIRenderer struct{}

// MediaType returns "application/vnd.oai.openapi+json".
func (JSONOpenAPIRenderer) MediaType() string { return "application/vnd.oai.openapi+json" }

// Format returns "openapi-json".
func (JSONOpenAPIRenderer) Format() string { return "openapi-json" }

// Charset returns "utf-8".
func (JSONOpenAPIRenderer) Charset() string { return "utf-8" }

// Render renders data as JSON.
func (JSONOpenAPIRenderer) Render(data any, _ *framework.RenderContext) ([]byte, error) {
	return marshal(data)
}

// marshal is the JSON of data indented by 2, and a final newline.
func marshal(data any) ([]byte, error) {
	b, err := rawjson.MarshalIndent(data, "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// View returns the schema view of g (DRF's SchemaView): GET answers the
// document of the whole API, or with ?version=V (the view's VersionParam)
// the document of version V, one of g's Versions (else 404 "Invalid
// version in query parameter."); in YAML, or in JSON for
// ?format=openapi-json, Accept: application/vnd.oai.openapi+json or
// application/json. Each document is generated once, on first use, so the
// routes must all be registered before the view serves; documents leave
// out the views that render OpenAPI (schema views). Set the view's other
// policies (Permissions ...) on the returned View before registering it.
func (g *Generator) View() framework.View {
	var (
		mu   sync.Mutex
		docs = map[string]*Document{}
	)
	v := framework.View{
		Name:       "Schema",
		Renderers:  framework.Renderers(OpenAPIRenderer{}, JSONOpenAPIRenderer{}, framework.JSONRenderer{}),
		Versioning: framework.NoVersioning,
	}
	v.Get = func(v *framework.View, r *request.Request) (*framework.Response, error) {
		version := r.QueryParam(v.VersionConfig().Param)
		mu.Lock()
		defer mu.Unlock()
		doc, ok := docs[version]
		if !ok {
			if version != "" && !slices.Contains(g.Versions(), version) {
				return nil, exceptions.NotFound(versioning.InvalidQueryVersion)
			}
			var err error
			if doc, err = g.Document(version); err != nil {
				return nil, err
			}
			docs[version] = doc
		}
		return &framework.Response{Status: http.StatusOK, Data: doc}, nil
	}
	return v
}
