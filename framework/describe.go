package framework

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// Describer tells what a view reads and answers and who may send what:
// the OpenAPI schema and the browsable page's forms are built from it.
// Generic views and viewsets are Describers of their views.
type Describer interface {
	// SerializerOf describes the serializer of r's bodies to v (DRF's
	// get_serializer_class), nil when the view has none; r's method (and
	// so v.Action(r)) and version are the ones to describe.
	SerializerOf(v *View, r *request.Request) (*SerializerDescription, error)
	// Allows reports whether r's user may send method to v: the view's
	// permissions and, on an item's route, its object permissions (DRF's
	// show_form_for_method). Denials are false with no error.
	Allows(v *View, r *request.Request, method string) (bool, error)
}

// SerializerDescription describes a serializer: one value per serializer,
// made once, so that a schema can name each serializer's component once.
type SerializerDescription struct {
	// Model is the item type's name ("Book").
	Model string
	// Fields are the fields in output order.
	Fields []FieldDescription
}

// FieldDescription describes one field of a serializer: what an OpenAPI
// schema documents and what a browsable page's form is built from.
type FieldDescription struct {
	// Name is the field's JSON name; Label its label ("Title", "ID").
	Name, Label string
	// HelpText is the field's help_text, "" for none.
	HelpText string
	// Pattern is the regular expression of the field's RegexValidator, in
	// Python's syntax; "" for none.
	Pattern string
	// Type is the field's type as OPTIONS metadata names it: "string",
	// "boolean", "integer", "float", "datetime", "decimal", or "field" for
	// a value of no fixed type.
	Type string
	// Format is what a value of a type of its own holds, as DRF's field
	// classes tell: "uuid", "decimal", "json", or "".
	Format string
	// Link reports a hyperlinked identity: a read-only absolute URL.
	Link bool
	// ReadOnly, WriteOnly, Required, AllowBlank and AllowNull are the
	// field's options.
	ReadOnly, WriteOnly, Required, AllowBlank, AllowNull bool
	// MaxLength and MinLength bound a string's length, or a list's number
	// of items; -1 when unset.
	MaxLength, MinLength int
	// MaxValue and MinValue bound a number, as JSON numbers; "" when unset.
	MaxValue, MinValue string
	// DecimalPlaces and MaxWholeDigits are a decimal's places and the
	// digits it may have before the point (DRF's decimal_places and
	// max_digits - decimal_places); 0 when unset, as DRF leaves them out
	// of its schema when 0.
	DecimalPlaces, MaxWholeDigits int
	// Choices are the values of a choice or multiple choice field (Type
	// "choice", "multiple choice"), in order; nil for other fields.
	Choices []Choice
	// TextArea reports a text written in a textarea (DRF's style
	// {'base_template': 'textarea.html'}, a model's TextField).
	TextArea bool
	// Child describes the items of a list or dictionary (Type "list",
	// "nested object"); nil for other fields.
	Child *FieldDescription
	// Related reports a writable relational field, whose choices are the
	// related rows (a RelatedLister lists them for a browsable form).
	Related bool
	// Many reports a relational field of many=True (DRF's
	// ManyRelatedField): a list of the related keys or links.
	Many bool
	// IntegerKey reports a writable relational field of integer keys (a
	// PrimaryKeyRelatedField whose model's key is an AutoField).
	IntegerKey bool
	// Initial is the field's initial value (DRF's initial=) as JSON, which
	// a new item's forms start from; "" for its type's own ("" for a
	// string, false for a boolean, null for most others).
	Initial string
}

// RelatedLister is a Describer that lists the choices of a writable
// relational field for r: the related rows, as DRF's
// RelatedField.iter_options, cut off after the field's html_cutoff
// (Settings.HTMLSelectCutoff, 1000 by default) by a last choice of value
// RelatedCutoff, "More than 1000 items...", which a form shows disabled.
// It may query the database; the browsable page asks once per field and
// page.
type RelatedLister interface {
	RelatedChoices(v *View, r *request.Request, field string) ([]Choice, error)
}

// RelatedCutoff is the value of the disabled choice that ends a related
// field's choices cut off (DRF's html_cutoff).
const RelatedCutoff = "n/a"

// Choice is one value of a choice field and its label.
type Choice struct {
	// Value is the value's text; Label its display name.
	Value, Label string
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

// EndpointAt returns the endpoint of the view's API that a GET of path
// reaches, as the router that served r routes it: the browsable page
// names each prefix of its path by the view there. It finds the views
// registered with Handle, a router's too, whatever their middleware;
// false for a path that reaches none, or a view no API compiled.
func (v *View) EndpointAt(r *http.Request, path string) (Endpoint, bool) {
	rctx := chi.RouteContext(r.Context())
	if v.endpoints == nil || rctx == nil || rctx.Routes == nil {
		return Endpoint{}, false
	}
	i, ok := v.endpoints.at[reverse.Find(rctx.Routes, http.MethodGet, path)]
	if !ok {
		return Endpoint{}, false
	}
	return v.endpoints.list[i], true
}
