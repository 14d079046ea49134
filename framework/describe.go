package framework

import (
	"net/http"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// Describer tells what a view reads and answers and who may send what:
// the OpenAPI schema and the browsable page's forms are built from it.
// Generic views and viewsets are Describers of their views.
type Describer interface {
	// SerializerOf returns the serializer of r's bodies (DRF's
	// get_serializer_class); r's method and version are the ones to describe.
	SerializerOf(r *request.Request) (serializers.Describer, error)
	// Allows reports whether r's user may send method to v: the view's
	// permissions and, on an item's route, its object permissions (DRF's
	// show_form_for_method). Denials are false with no error.
	Allows(v *View, r *request.Request, method string) (bool, error)
}

// Endpoint is a route registered on an API with a view: what an OpenAPI
// schema describes.
type Endpoint struct {
	// Pattern is the route's chi pattern from the API's root ("/books/{pk:[^/.]+}/").
	Pattern string
	// Name is the route's name, "" if unnamed; Namespace its namespace ("v1").
	Name, Namespace string
	// View is the compiled view: its policy fields hold the effective values.
	View *View
}

// ViewOf returns the compiled view of a handler that API.Handle or
// API.Handler made, and false for any other handler.
func ViewOf(h http.Handler) (*View, bool) {
	if c, ok := h.(*handler); ok {
		return &c.view, true
	}
	return nil, false
}
