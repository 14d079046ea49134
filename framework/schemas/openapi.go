package schemas

import (
	"encoding/json"

	"github.com/go-drf/drf/internal/rawjson"
)

// openAPIVersion is the OpenAPI version of the documents.
const openAPIVersion = "3.1.0"

// Document is an OpenAPI 3.1 document. It marshals to JSON with its
// members in the specification's order, paths in registration order.
type Document struct {
	OpenAPI    string                `json:"openapi"`
	Info       Info                  `json:"info"`
	Paths      Ordered[*PathItem]    `json:"paths"`
	Components Components            `json:"components"`
	Security   []SecurityRequirement `json:"security,omitempty"`
}

// Info is the document's title, version and description.
type Info struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
}

// PathItem holds the operations of one path.
type PathItem struct {
	Get     *Operation `json:"get,omitempty"`
	Put     *Operation `json:"put,omitempty"`
	Post    *Operation `json:"post,omitempty"`
	Delete  *Operation `json:"delete,omitempty"`
	Patch   *Operation `json:"patch,omitempty"`
	Options *Operation `json:"options,omitempty"`
}

// Operation is one method of one path.
type Operation struct {
	OperationID string                `json:"operationId"`
	Summary     string                `json:"summary,omitempty"`
	Description string                `json:"description,omitempty"`
	Tags        []string              `json:"tags,omitempty"`
	Parameters  []Parameter           `json:"parameters,omitempty"`
	RequestBody *RequestBody          `json:"requestBody,omitempty"`
	Responses   Ordered[*Response]    `json:"responses"`
	Security    []SecurityRequirement `json:"security,omitempty"`
	// Deprecated marks the operations of a deprecated version
	// (versioning.Lifecycle) in that version's document.
	Deprecated bool `json:"deprecated,omitempty"`
}

// Parameter is a path or query parameter.
type Parameter struct {
	Name        string  `json:"name"`
	In          string  `json:"in"`
	Required    bool    `json:"required"`
	Description string  `json:"description,omitempty"`
	Schema      *Schema `json:"schema"`
}

// RequestBody is an operation's body, by media type.
type RequestBody struct {
	Content  Ordered[MediaType] `json:"content"`
	Required bool               `json:"required,omitempty"`
}

// Response is one answer of an operation, by media type.
type Response struct {
	Description string             `json:"description"`
	Headers     Ordered[*Header]   `json:"headers,omitempty"`
	Content     Ordered[MediaType] `json:"content,omitempty"`
}

// Header is a header field of an answer.
type Header struct {
	Description string  `json:"description,omitempty"`
	Schema      *Schema `json:"schema"`
}

// MediaType holds the schema of a body: a *Schema, or the JSON Schema a
// paginator gives for its envelope.
type MediaType struct {
	Schema any `json:"schema"`
	// Examples are sample bodies by name (framework.ResponseSchema's).
	Examples Ordered[Example] `json:"examples,omitempty"`
}

// Example is a sample body.
type Example struct {
	Value json.RawMessage `json:"value"`
}

// Components are the schemas and security schemes operations refer to.
type Components struct {
	Schemas         Ordered[*Schema]         `json:"schemas,omitempty"`
	SecuritySchemes Ordered[*SecurityScheme] `json:"securitySchemes,omitempty"`
}

// SecurityScheme is an authentication scheme: HTTP Basic, an API key in a
// header or a cookie.
type SecurityScheme struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	Name        string `json:"name,omitempty"`
	In          string `json:"in,omitempty"`
	Scheme      string `json:"scheme,omitempty"`
}

// SecurityRequirement names the schemes that together authenticate a
// request; an empty one means "no authentication needed".
type SecurityRequirement map[string][]string

// Schema is a JSON Schema (the 2020-12 dialect of OpenAPI 3.1), as much
// of it as serializers, parameters and error bodies need.
type Schema struct {
	Ref                  string           `json:"$ref,omitempty"`
	AnyOf                []*Schema        `json:"anyOf,omitempty"`
	Type                 any              `json:"type,omitempty"`
	Format               string           `json:"format,omitempty"`
	Description          string           `json:"description,omitempty"`
	Pattern              string           `json:"pattern,omitempty"`
	Enum                 []string         `json:"enum,omitempty"`
	Items                *Schema          `json:"items,omitempty"`
	Properties           Ordered[*Schema] `json:"properties,omitempty"`
	Required             []string         `json:"required,omitempty"`
	AdditionalProperties *Schema          `json:"additionalProperties,omitempty"`
	ReadOnly             bool             `json:"readOnly,omitempty"`
	WriteOnly            bool             `json:"writeOnly,omitempty"`
	MaxLength            *int             `json:"maxLength,omitempty"`
	MinLength            *int             `json:"minLength,omitempty"`
	MaxItems             *int             `json:"maxItems,omitempty"`
	MinItems             *int             `json:"minItems,omitempty"`
	MultipleOf           json.Number      `json:"multipleOf,omitempty"`
	Maximum              json.Number      `json:"maximum,omitempty"`
	Minimum              json.Number      `json:"minimum,omitempty"`
}

// Ordered is a JSON object whose members keep their order.
type Ordered[V any] []Member[V]

// Member is one member of an Ordered object.
type Member[V any] struct {
	Name  string
	Value V
}

// Get returns the value of the member called name.
func (o Ordered[V]) Get(name string) (V, bool) {
	for _, m := range o {
		if m.Name == name {
			return m.Value, true
		}
	}
	var zero V
	return zero, false
}

// MarshalJSON renders the members in order; none is {}.
func (o Ordered[V]) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(rawjson.AppendString(b, m.Name), ':')
		var err error
		if b, err = rawjson.Append(b, m.Value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}
