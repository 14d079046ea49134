// Package schemas generates OpenAPI 3.1 documents from an API's routes,
// as DRF's schemas module does (SchemaGenerator, AutoSchema, the
// generateschema command and SchemaView).
//
// Each route's view is described from its policies: the serializer its
// Describer gives (request bodies and answers, as JSON Schema with types,
// required and read-only fields, lengths and bounds), its paginator and
// filter backends (query parameters and the paginated envelope), its
// versioning scheme (the version parameter), its authentication schemes
// (security schemes for Basic, Token and session cookie + CSRF), and the
// error bodies its policies can answer. A versioned API gets one document
// per version.
package schemas

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/versioning"
	"github.com/go-drf/drf/internal/structs"
)

// Generator builds the documents of an API (DRF's SchemaGenerator).
type Generator struct {
	// Info is the document's title, version and description; an empty
	// Title gives "API", an empty Version the API version described, else "1.0.0".
	Info Info
	// API holds the routes to describe, read when a document is generated:
	// a *framework.API, or an Endpoints list.
	API EndpointLister
	// Problems reports the routes whose errors a problem details handler
	// answers (framework/problems): their error answers are described as
	// application/problem+json, the Problem schema. Nil: none.
	Problems func(e framework.Endpoint) bool
}

// EndpointLister lists routes with their views: *framework.API is one.
type EndpointLister interface {
	Endpoints() []framework.Endpoint
}

// Endpoints is a fixed list of routes.
type Endpoints []framework.Endpoint

// Endpoints returns the list.
func (e Endpoints) Endpoints() []framework.Endpoint { return e }

// ParameterDescriber is a policy (a paginator, a filter backend) that adds
// query parameters to list operations (DRF's get_schema_operation_parameters).
type ParameterDescriber interface {
	SchemaParameters(v *framework.View) []pagination.SchemaParameter
}

// EnvelopeDescriber is a paginator whose answers wrap the page's items:
// ResponseSchema returns the JSON Schema of the answer whose items the
// schema results describes (DRF's get_paginated_response_schema).
type EnvelopeDescriber interface {
	ResponseSchema(results any) any
}

// SecurityDescriber is an authentication scheme that names its security
// scheme; Basic, Token and Session are described without it.
type SecurityDescriber interface {
	// SecurityScheme returns the scheme's name in components.securitySchemes
	// and its description.
	SecurityScheme() (name string, scheme *SecurityScheme)
}

// SessionNamer is a session backend that names its cookie and CSRF
// header (contrib/sessions' Manager); without it "sessionid" and
// "X-CSRFToken" are documented.
type SessionNamer interface {
	SessionCookieName() string
	CSRFHeaderName() string
}

// FiltersDescriber is a view Describer with filter backends, whose query
// parameters list operations take (the generic views).
type FiltersDescriber interface {
	Filters(v *framework.View) []framework.FilterBackend
}

// Schemas of the error bodies every document holds.
const (
	errorSchema           = "Error"
	validationErrorSchema = "ValidationError"
)

// generation is the state of one document being built.
type generation struct {
	doc     *Document
	version string
	// components maps each serializer described to its component's name.
	components map[*framework.SerializerDescription]string
	names      map[string]bool
	opIDs      map[string]bool
	problems   func(e framework.Endpoint) bool
}

// Document generates the document of version ("" for the API as a whole:
// every route, URL path versions as a parameter). A document of a version
// leaves out the routes of views that do not allow it and the namespaces
// of other versions.
func (g *Generator) Document(version string) (*Document, error) {
	info := g.Info
	info.Title = cmp.Or(info.Title, "API")
	info.Version = cmp.Or(info.Version, version, "1.0.0")
	gen := &generation{
		doc:        &Document{OpenAPI: openAPIVersion, Info: info},
		version:    version,
		components: map[*framework.SerializerDescription]string{},
		names:      map[string]bool{},
		opIDs:      map[string]bool{},
		problems:   g.Problems,
	}
	for _, e := range g.endpoints() {
		if e.View == nil {
			return nil, fmt.Errorf("schemas: route %s has no view", e.Pattern)
		}
		if err := gen.endpoint(e); err != nil {
			return nil, fmt.Errorf("schemas: route %s: %w", e.Pattern, err)
		}
	}
	gen.addErrorSchemas()
	return gen.doc, nil
}

// Versions lists the versions with a document of their own: the allowed
// versions of every versioned view, in order of first appearance.
func (g *Generator) Versions() []string {
	var out []string
	for _, e := range g.endpoints() {
		if e.View == nil || e.View.Versioning == nil {
			continue
		}
		for _, v := range e.View.VersionConfig().Allowed {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// chiParam matches a {name} or {name:regexp} of a chi pattern.
var chiParam = regexp.MustCompile(`\{([^{}:]+)(?::(?:[^{}]|\{[^{}]*\})*)?\}`)

// endpoints are the routes of g's API.
func (g *Generator) endpoints() []framework.Endpoint {
	if g.API == nil {
		return nil
	}
	return g.API.Endpoints()
}

func (gen *generation) endpoint(e framework.Endpoint) error {
	v := e.View
	for _, rd := range v.Renderers.Items() {
		if _, ok := rd.(OpenAPIRenderer); ok {
			return nil // a schema view, as DRF's SchemaView has no schema
		}
	}
	versions := v.VersionConfig()
	path := chiParam.ReplaceAllString(e.Pattern, "{$1}")
	if strings.Contains(path, "*") {
		return nil // a catch-all mount, not an operation
	}
	// The version this route answers in this document.
	version := versions.Default
	if v.Versioning != nil && gen.version != "" {
		if !versions.IsAllowed(gen.version) {
			return nil
		}
		version = gen.version
	}
	if _, ok := versioning.Scheme(v.Versioning).(versioning.NamespaceVersioning); ok && gen.version != "" {
		ns := e.Namespace[strings.LastIndexByte(e.Namespace, ':')+1:]
		if ns != gen.version {
			return nil
		}
	}
	_, urlVersioned := versioning.Scheme(v.Versioning).(versioning.URLPathVersioning)
	if urlVersioned && gen.version != "" {
		path = strings.ReplaceAll(path, "{"+versions.Param+"}", gen.version)
	}
	if _, taken := gen.doc.Paths.Get(path); taken {
		return nil // two routes on one path: the first one answers
	}
	item := &PathItem{}
	for _, method := range v.AllowedMethods() {
		op, err := gen.operation(e, path, method, version)
		if err != nil {
			return err
		}
		if op == nil {
			continue // excluded (OperationSchema.Exclude)
		}
		switch method {
		case http.MethodGet:
			item.Get = op
		case http.MethodPost:
			item.Post = op
		case http.MethodPut:
			item.Put = op
		case http.MethodPatch:
			item.Patch = op
		case http.MethodDelete:
			item.Delete = op
		}
	}
	if *item == (PathItem{}) {
		return nil // every operation excluded
	}
	gen.doc.Paths = append(gen.doc.Paths, Member[*PathItem]{path, item})
	return nil
}

// fakeRequest is a request of method to path by an anonymous user, in
// version: what serializers and permissions are asked about.
func fakeRequest(v *framework.View, method, path, version string) *request.Request {
	hr, _ := http.NewRequest(method, "http://schema.invalid"+path, http.NoBody)
	r := request.New(hr, request.Config{})
	r.SetUser(request.AnonymousUser{}, nil)
	r.SetVersion(version, v.Versioning)
	return r
}

// isList is DRF's is_list_view: a view whose GET serves a known action
// lists when that action is list (a generic view that retrieves names an
// item wherever its path ends); otherwise the path names a list when it
// does not end in a parameter.
func isList(v *framework.View, path string) bool {
	if a, ok := v.Actions[http.MethodGet]; ok {
		return a == framework.ActionList
	}
	segments := strings.Split(strings.Trim(path, "/"), "/")
	return !strings.Contains(segments[len(segments)-1], "{")
}

func (gen *generation) operation(e framework.Endpoint, path, method, version string) (*Operation, error) {
	v := e.View
	versions := v.VersionConfig()
	r := fakeRequest(v, method, path, version)
	var ser *framework.SerializerDescription
	if v.Describer != nil {
		s, err := v.Describer.SerializerOf(v, r)
		if err != nil {
			return nil, err
		}
		ser = s
	}
	// A GET of a path that names no item lists, when the view has a
	// serializer or a pagination style of its own: plain views inherit the
	// global style but only DRF's generic views have pagination_class.
	paginator := v.Paginator()
	list := method == http.MethodGet && isList(v, path) && (ser != nil || paginator != nil && v.OwnPagination())
	paginated := list && paginator != nil

	extra := operationSchema(v, method)
	if extra.Exclude {
		return nil, nil
	}
	op := &Operation{Description: v.Description, Tags: tags(path)}
	op.OperationID = gen.operationID(v, ser, method, path, list)
	op.Parameters = pathParameters(path, v, ser)
	if paginated {
		if d, ok := paginator.(ParameterDescriber); ok {
			op.Parameters = append(op.Parameters, fromPagination(d.SchemaParameters(v))...)
		}
	}
	if list {
		if fd, ok := v.Describer.(FiltersDescriber); ok {
			for _, b := range fd.Filters(v) {
				if d, ok := b.(ParameterDescriber); ok {
					op.Parameters = append(op.Parameters, fromPagination(d.SchemaParameters(v))...)
				}
			}
		}
	}
	if _, ok := versioning.Scheme(v.Versioning).(versioning.QueryParameterVersioning); ok {
		op.Parameters = append(op.Parameters, Parameter{Name: versions.Param, In: "query",
			Description: "The API version; the default is " + cmp.Or(versions.Default, "none") + ".",
			Schema:      versionSchema(versions, gen.version)})
	}

	renders := renderTypes(v.Renderers.Items())
	var body *Schema
	if ser != nil {
		body = &Schema{Ref: "#/components/schemas/" + gen.component(ser, method == http.MethodPatch)}
	}
	// The serializer that validates the body: the view's, else the one its
	// OperationSchema names.
	reqSer := cmp.Or(ser, extra.Request)
	if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		op.RequestBody = &RequestBody{Required: reqSer != nil}
		for _, p := range v.Parsers.Items() {
			s := body
			if s == nil && reqSer != nil {
				s = &Schema{Ref: "#/components/schemas/" + gen.component(reqSer, false)}
			} else if s == nil {
				s = &Schema{}
			}
			op.RequestBody.Content = append(op.RequestBody.Content, Member[MediaType]{p.MediaType(), MediaType{Schema: s}})
		}
		if len(op.RequestBody.Content) == 0 {
			op.RequestBody = nil
		}
	}

	// The successful answer.
	var answer any = &Schema{}
	if ser != nil {
		answer = body
		if method == http.MethodPatch || method == http.MethodPut {
			answer = &Schema{Ref: "#/components/schemas/" + gen.component(ser, false)}
		}
	}
	if list {
		if ser != nil {
			answer = &Schema{Type: "array", Items: answer.(*Schema)}
		}
		if paginated {
			if d, ok := paginator.(EnvelopeDescriber); ok {
				answer = d.ResponseSchema(answer)
			}
		}
	}
	switch {
	case method == http.MethodDelete && ser != nil:
		op.Responses = append(op.Responses, Member[*Response]{"204", &Response{Description: "No Content"}})
	case method == http.MethodPost && ser != nil:
		op.Responses = append(op.Responses, Member[*Response]{"201", &Response{Description: "Created", Content: content(renders, answer)}})
	default:
		op.Responses = append(op.Responses, Member[*Response]{"200", &Response{Description: "OK", Content: content(renders, answer)}})
	}
	gen.errorResponses(op, v, r, reqSer, renders)
	if gen.problems != nil && gen.problems(e) {
		gen.asProblems(op, renders)
	}
	op.Security = gen.security(v, r, method)
	gen.extend(op, extra, renders)
	if l, ok := v.Versioning.(versioning.Lifecycle); ok && gen.version != "" {
		if d, deprecated := l.Deprecated[gen.version]; deprecated {
			op.Deprecated = true
			deprecationHeaders(op, d)
		}
	}
	return op, nil
}

// deprecationHeaders documents the fields versioning.Lifecycle adds to
// every answer of a deprecated version.
func deprecationHeaders(op *Operation, d versioning.Deprecation) {
	var hs Ordered[*Header]
	if !d.Since.IsZero() {
		hs = append(hs, Member[*Header]{"Deprecation", &Header{Description: "When this version was deprecated (RFC 9745).", Schema: &Schema{Type: "string"}}})
	}
	if !d.Sunset.IsZero() {
		hs = append(hs, Member[*Header]{"Sunset", &Header{Description: "When this version stops answering (RFC 8594).", Schema: &Schema{Type: "string"}}})
	}
	if d.Successor != "" || d.Policy != "" {
		hs = append(hs, Member[*Header]{"Link", &Header{Description: `The same resource in the successor version (rel="successor-version"), the deprecation policy (rel="deprecation").`, Schema: &Schema{Type: "string"}}})
	}
	for _, m := range op.Responses {
		m.Value.Headers = hs
	}
}

// operationSchema is the view's OperationSchema of method: the one of
// every method ("") with the method's own over it.
func operationSchema(v *framework.View, method string) framework.OperationSchema {
	all, own := v.Schema[""], v.Schema[method]
	out := own
	out.Exclude = all.Exclude || own.Exclude
	out.Deprecated = all.Deprecated || own.Deprecated
	out.Summary = cmp.Or(own.Summary, all.Summary)
	out.Description = cmp.Or(own.Description, all.Description)
	out.Request = cmp.Or(own.Request, all.Request)
	if own.Tags == nil {
		out.Tags = all.Tags
	}
	out.Responses = maps.Clone(all.Responses)
	if out.Responses == nil {
		out.Responses = map[int]framework.ResponseSchema{}
	}
	maps.Copy(out.Responses, own.Responses)
	return out
}

// extend applies what an OperationSchema says to op.
func (gen *generation) extend(op *Operation, extra framework.OperationSchema, renders []string) {
	op.Summary = extra.Summary
	op.Description = cmp.Or(extra.Description, op.Description)
	if extra.Tags != nil {
		op.Tags = extra.Tags
	}
	op.Deprecated = op.Deprecated || extra.Deprecated
	for _, status := range slices.Sorted(maps.Keys(extra.Responses)) {
		rs := extra.Responses[status]
		res := &Response{Description: cmp.Or(rs.Description, http.StatusText(status))}
		var schema any
		switch {
		case rs.Serializer != nil:
			schema = &Schema{Ref: "#/components/schemas/" + gen.component(rs.Serializer, false)}
		case rs.Schema != nil:
			schema = rs.Schema
		}
		if schema != nil {
			var examples Ordered[Example]
			for _, name := range slices.Sorted(maps.Keys(rs.Examples)) {
				examples = append(examples, Member[Example]{name, Example{Value: rs.Examples[name]}})
			}
			for _, t := range renders {
				res.Content = append(res.Content, Member[MediaType]{t, MediaType{Schema: schema, Examples: examples}})
			}
		}
		code := strconv.Itoa(status)
		if i := slices.IndexFunc(op.Responses, func(m Member[*Response]) bool { return m.Name == code }); i >= 0 {
			op.Responses[i].Value = res
		} else {
			op.Responses = append(op.Responses, Member[*Response]{code, res})
		}
	}
}

// errorResponses adds the error answers the view's policies can give.
func (gen *generation) errorResponses(op *Operation, v *framework.View, r *request.Request, ser *framework.SerializerDescription, renders []string) {
	add := func(code int, schema string) {
		op.Responses = append(op.Responses, Member[*Response]{strconv.Itoa(code),
			&Response{Description: http.StatusText(code), Content: content(renders, &Schema{Ref: "#/components/schemas/" + schema})}})
	}
	if op.RequestBody != nil {
		// A body the parser refuses is {"detail": ...}; one the serializer
		// refuses, its messages by field.
		invalid := validationErrorSchema
		if ser != nil {
			invalid = gen.validationComponent(ser)
		}
		op.Responses = append(op.Responses, Member[*Response]{"400", &Response{Description: "Bad Request",
			Content: content(renders, &Schema{AnyOf: []*Schema{{Ref: "#/components/schemas/" + invalid}, {Ref: "#/components/schemas/" + errorSchema}}})}})
	}
	// 401 when the first scheme challenges (DRF's authenticate_header), else 403.
	schemes := v.Authentication.Items()
	challenge := false
	if len(schemes) > 0 {
		c, ok := schemes[0].(request.Challenger)
		challenge = ok && c.AuthenticateHeader(r) != ""
	}
	if challenge {
		add(http.StatusUnauthorized, errorSchema)
	}
	if len(schemes) > 0 || v.CheckPermissions(r) != nil {
		add(http.StatusForbidden, errorSchema)
	}
	// A missing item, page or version, and on any operation an unknown
	// ?format= (DRF's Http404).
	add(http.StatusNotFound, errorSchema)
	// Any request whose Accept no renderer satisfies.
	add(http.StatusNotAcceptable, errorSchema)
	if op.RequestBody != nil {
		add(http.StatusUnsupportedMediaType, errorSchema)
	}
	if len(v.Throttles.Items()) > 0 {
		add(http.StatusTooManyRequests, errorSchema)
	}
}

// security lists the ways to authenticate the operation: one requirement
// per scheme of the view (session: the cookie, plus the CSRF header for
// unsafe methods), and an empty one when anonymous requests are allowed.
func (gen *generation) security(v *framework.View, r *request.Request, method string) []SecurityRequirement {
	var reqs []SecurityRequirement
	for _, a := range v.Authentication.Items() {
		if req := gen.scheme(a, method); req != nil {
			reqs = append(reqs, req)
		}
	}
	if len(reqs) > 0 && v.CheckPermissions(r) == nil {
		reqs = append(reqs, SecurityRequirement{})
	}
	return reqs
}

func (gen *generation) scheme(a request.Authenticator, method string) SecurityRequirement {
	switch s := a.(type) {
	case SecurityDescriber:
		name, scheme := s.SecurityScheme()
		gen.securityScheme(name, scheme)
		return SecurityRequirement{name: {}}
	case authentication.Basic:
		gen.securityScheme("basicAuth", &SecurityScheme{Type: "http", Scheme: "basic"})
		return SecurityRequirement{"basicAuth": {}}
	case authentication.Token:
		keyword := cmp.Or(s.Keyword, "Token")
		name := "tokenAuth"
		if keyword != "Token" {
			name = strings.ToLower(keyword) + "Auth"
		}
		gen.securityScheme(name, &SecurityScheme{Type: "apiKey", In: "header", Name: "Authorization",
			Description: `Token-based authentication with required prefix "` + keyword + `"`})
		return SecurityRequirement{name: {}}
	case authentication.Session:
		cookie, header := "sessionid", "X-CSRFToken"
		if n, ok := s.Sessions.(SessionNamer); ok {
			cookie, header = n.SessionCookieName(), n.CSRFHeaderName()
		}
		gen.securityScheme("cookieAuth", &SecurityScheme{Type: "apiKey", In: "cookie", Name: cookie,
			Description: "A logged-in session; requests that change data also send the CSRF token."})
		if method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions {
			return SecurityRequirement{"cookieAuth": {}}
		}
		gen.securityScheme("csrfToken", &SecurityScheme{Type: "apiKey", In: "header", Name: header,
			Description: "The CSRF token of the session (the csrftoken cookie's value)."})
		return SecurityRequirement{"cookieAuth": {}, "csrfToken": {}}
	}
	return nil
}

func (gen *generation) securityScheme(name string, s *SecurityScheme) {
	if _, ok := gen.doc.Components.SecuritySchemes.Get(name); !ok {
		gen.doc.Components.SecuritySchemes = append(gen.doc.Components.SecuritySchemes, Member[*SecurityScheme]{name, s})
	}
}

// component returns the name of ser's schema in components, adding it
// once: the model's name, "Patched" before it for PATCH bodies (no field
// required), a number after it when two serializers of one model differ.
func (gen *generation) component(ser *framework.SerializerDescription, patched bool) string {
	name, ok := gen.components[ser]
	if !ok {
		base := cmp.Or(ser.Model, "Item")
		name = base
		for n := 2; gen.names[name] || gen.names["Patched"+name]; n++ {
			name = base + strconv.Itoa(n)
		}
		gen.components[ser] = name
		gen.names[name] = true
		gen.doc.Components.Schemas = append(gen.doc.Components.Schemas, Member[*Schema]{name, objectSchema(ser.Fields, false)})
	}
	if !patched {
		return name
	}
	if _, ok := gen.doc.Components.Schemas.Get("Patched" + name); !ok {
		gen.doc.Components.Schemas = append(gen.doc.Components.Schemas, Member[*Schema]{"Patched" + name, objectSchema(ser.Fields, true)})
	}
	return "Patched" + name
}

// validationComponent returns the name of the schema of ser's validation
// errors in components, adding it once: the messages of each writable
// field, and non_field_errors.
func (gen *generation) validationComponent(ser *framework.SerializerDescription) string {
	name := gen.component(ser, false) + validationErrorSchema
	if _, ok := gen.doc.Components.Schemas.Get(name); ok {
		return name
	}
	messages := func() *Schema { return &Schema{Type: "array", Items: &Schema{Type: "string"}} }
	s := &Schema{Type: "object", Description: "The messages of each invalid field; non_field_errors holds those of the whole object."}
	for _, f := range ser.Fields {
		if !f.ReadOnly {
			s.Properties = append(s.Properties, Member[*Schema]{f.Name, messages()})
		}
	}
	s.Properties = append(s.Properties, Member[*Schema]{"non_field_errors", messages()})
	gen.doc.Components.Schemas = append(gen.doc.Components.Schemas, Member[*Schema]{name, s})
	return name
}

// objectSchema is the JSON Schema of a serializer's fields; partial
// leaves every field optional.
func objectSchema(fields []framework.FieldDescription, partial bool) *Schema {
	s := &Schema{Type: "object"}
	for _, f := range fields {
		s.Properties = append(s.Properties, Member[*Schema]{f.Name, FieldSchema(f)})
		if f.Required && !f.ReadOnly && !partial {
			s.Required = append(s.Required, f.Name)
		}
	}
	return s
}

// FieldSchema is the JSON Schema of one serializer field (DRF's map_field).
func FieldSchema(f framework.FieldDescription) *Schema {
	s := &Schema{ReadOnly: f.ReadOnly, WriteOnly: f.WriteOnly, Description: f.HelpText, Pattern: f.Pattern}
	var typ string
	switch {
	case f.Many:
		// DRF's ManyRelatedField: an array of its child relation's type.
		typ, s.Items = "array", &Schema{Type: "string"}
		if f.IntegerKey {
			s.Items.Type = "integer"
		}
	case f.Link:
		typ = "string" // DRF's HyperlinkedRelatedField and HyperlinkedIdentityField
	case f.IntegerKey:
		typ = "integer" // DRF's PrimaryKeyRelatedField over an AutoField
	case f.Format == "uuid":
		typ, s.Format = "string", "uuid"
	case f.Format == "decimal":
		// DRF's DecimalField with COERCE_DECIMAL_TO_STRING.
		typ, s.Format = "string", "decimal"
	case f.Format == "json":
		typ = "object" // DRF's JSONField, whatever it holds
	case f.Type == "date":
		typ, s.Format = "string", "date"
	case f.Type == "time" || f.Format == "duration" || f.Format == "binary":
		typ = "string" // DRF's TimeField, DurationField and ModelField
	case f.Type == "string" || f.Type == "slug" || f.Type == "regex":
		typ = "string"
	case f.Type == "email":
		typ, s.Format = "string", "email"
	case f.Type == "url":
		typ, s.Format = "string", "uri"
	case f.Type == "choice":
		// DRF's map_choicefield, for choices of text.
		typ, s.Enum = "string", choiceValues(f)
	case f.Type == "multiple choice":
		typ, s.Items = "array", &Schema{Type: "string", Enum: choiceValues(f)}
	case f.Type == "list":
		typ, s.Items = "array", &Schema{}
		if f.Child != nil {
			// The child's type, not its validators' bounds, as DRF's map_field.
			s.Items = FieldSchema(*f.Child)
			s.Items.MaxLength, s.Items.MinLength, s.Items.Maximum, s.Items.Minimum = nil, nil, "", ""
		}
	case f.Type == "nested object":
		typ = "object" // DRF's DictField
	case f.Type == "boolean":
		typ = "boolean"
	case f.Type == "integer":
		typ = "integer"
	case f.Type == "float":
		typ, s.Format = "number", "double"
	case f.Type == "datetime":
		typ, s.Format = "string", "date-time"
	case f.Type == "file upload" || f.Type == "image upload":
		// DRF's FileField and ImageField, whose max_length is no validator.
		typ, s.Format, f.MaxLength = "string", "binary", -1
	}
	if typ != "" {
		s.Type = typ
		if f.AllowNull {
			s.Type = []string{typ, "null"}
		}
	}
	maxLength, minLength := &s.MaxLength, &s.MinLength
	if f.Type == "list" {
		// DRF's maxItems and minItems of a ListField's length validators.
		maxLength, minLength = &s.MaxItems, &s.MinItems
	}
	if f.MaxLength >= 0 {
		*maxLength = &f.MaxLength
	}
	if f.MinLength >= 0 {
		*minLength = &f.MinLength
	}
	s.Maximum, s.Minimum = json.Number(f.MaxValue), json.Number(f.MinValue)
	if f.Format == "decimal" {
		// DRF's bounds of a DecimalField's precision, unless it has its own.
		if f.DecimalPlaces > 0 {
			s.MultipleOf = json.Number(structs.AppendPythonFloat(nil, math.Pow10(-f.DecimalPlaces)))
		}
		if w := f.MaxWholeDigits; w > 0 {
			bound := "1" + strings.Repeat("0", w)
			s.Maximum, s.Minimum = cmp.Or(s.Maximum, json.Number(bound)), cmp.Or(s.Minimum, json.Number("-"+bound))
		}
	}
	return s
}

// choiceValues are the values of a choice field, its schema's enum.
func choiceValues(f framework.FieldDescription) []string {
	values := make([]string, len(f.Choices))
	for i, c := range f.Choices {
		values[i] = c.Value
	}
	return values
}

// problemSchema is the schema of problem details (RFC 9457), as
// framework/problems writes them.
const problemSchema = "Problem"

// asProblems describes op's error answers as problem details: JSON
// answers become application/problem+json.
func (gen *generation) asProblems(op *Operation, renders []string) {
	if _, ok := gen.doc.Components.Schemas.Get(problemSchema); !ok {
		str := func(d string) *Schema { return &Schema{Type: "string", Description: d} }
		gen.doc.Components.Schemas = append(gen.doc.Components.Schemas, Member[*Schema]{problemSchema, &Schema{Type: "object",
			Description: "Problem details (RFC 9457).",
			Required:    []string{"type", "title", "status", "detail", "instance"},
			Properties: Ordered[*Schema]{
				{"type", str("A URI naming the kind of problem, about:blank when the status says it.")},
				{"title", str("The status's reason phrase.")},
				{"status", &Schema{Type: "integer"}},
				{"detail", str("What went wrong, in DRF's words.")},
				{"instance", str("The path of the request.")},
				{"code", str("DRF's code of the error.")},
				{"errors", &Schema{Type: "object", Description: "A validation error's messages by field.",
					AdditionalProperties: &Schema{Type: "array", Items: &Schema{Type: "string"}}}},
			}}})
	}
	types := make([]string, len(renders))
	for i, t := range renders {
		types[i] = t
		if t == "application/json" {
			types[i] = "application/problem+json"
		}
	}
	for _, m := range op.Responses {
		if code, _ := strconv.Atoi(m.Name); code >= 400 {
			m.Value.Content = content(types, &Schema{Ref: "#/components/schemas/" + problemSchema})
		}
	}
}

// addErrorSchemas adds the schemas of error bodies: {"detail": "..."}, and
// a validation error's lists of messages by field.
func (gen *generation) addErrorSchemas() {
	gen.doc.Components.Schemas = append(gen.doc.Components.Schemas,
		Member[*Schema]{errorSchema, &Schema{Type: "object", Required: []string{"detail"},
			Properties: Ordered[*Schema]{{"detail", &Schema{Type: "string", Description: "What went wrong, in DRF's words."}}}}},
		Member[*Schema]{validationErrorSchema, &Schema{Type: "object",
			Description:          "The messages of each invalid field; non_field_errors holds those of the whole object.",
			AdditionalProperties: &Schema{Type: "array", Items: &Schema{Type: "string"}}}},
	)
}

// pathParameters documents the path's parameters: the version (an enum
// of the allowed versions, in a document of the whole API) and the item's
// key.
func pathParameters(path string, v *framework.View, ser *framework.SerializerDescription) []Parameter {
	versions := v.VersionConfig()
	var out []Parameter
	for _, m := range chiParam.FindAllStringSubmatch(path, -1) {
		name := m[1]
		p := Parameter{Name: name, In: "path", Required: true, Schema: &Schema{Type: "string"}}
		if _, ok := versioning.Scheme(v.Versioning).(versioning.URLPathVersioning); ok && name == versions.Param {
			p.Description = "The API version."
			p.Schema = versionSchema(versions, "")
		} else if ser != nil {
			model := strings.ToLower(ser.Model)
			for _, f := range ser.Fields {
				if f.Name == "id" && f.Type == "integer" {
					p.Schema = &Schema{Type: "integer"}
					p.Description = "A unique integer value identifying this " + model + "."
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// versionSchema is a string that is one of the allowed versions (only
// version in a version's document), or any string when all are allowed.
func versionSchema(c request.VersionConfig, version string) *Schema {
	s := &Schema{Type: "string"}
	if version != "" {
		s.Enum = []string{version}
		return s
	}
	for _, v := range c.Allowed {
		if c.IsAllowed(v) && !slices.Contains(s.Enum, v) {
			s.Enum = append(s.Enum, v)
		}
	}
	return s
}

// fromPagination converts paginators' and filters' parameters.
func fromPagination(ps []pagination.SchemaParameter) []Parameter {
	out := make([]Parameter, len(ps))
	for i, p := range ps {
		out[i] = Parameter{Name: p.Name, In: p.Location, Required: p.Required, Description: p.Description, Schema: &Schema{Type: p.Type}}
	}
	return out
}

// renderTypes are the media types of the renderers, but HTML pages, as
// DRF leaves out the browsable renderer.
func renderTypes(rs []framework.Renderer) []string {
	var out []string
	for _, r := range rs {
		t := r.MediaType()
		if t != "text/html" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func content(types []string, schema any) Ordered[MediaType] {
	out := make(Ordered[MediaType], len(types))
	for i, t := range types {
		out[i] = Member[MediaType]{t, MediaType{Schema: schema}}
	}
	return out
}

// tags is the path's first segment, as DRF tags operations.
func tags(path string) []string {
	first, _, _ := strings.Cut(strings.Trim(path, "/"), "/")
	if first == "" || strings.Contains(first, "{") {
		return nil
	}
	return []string{first}
}

// actions are DRF's action names of methods, for operation IDs.
var actions = map[string]string{
	http.MethodGet: "retrieve", http.MethodPost: "create", http.MethodPut: "update",
	http.MethodPatch: "partialUpdate", http.MethodDelete: "destroy",
}

// operationID is DRF's: the action, then the model's name ("listBooks",
// "createBook"), or the view's for views without a serializer
// ("retrieveWhoAmI"). A name already taken uses the view's name, then a number.
func (gen *generation) operationID(v *framework.View, ser *framework.SerializerDescription, method, path string, list bool) string {
	action := actions[method]
	if list {
		action = "list"
	}
	var candidates []string
	if ser != nil {
		name := ser.Model
		if list {
			name += "s"
		}
		candidates = append(candidates, action+name)
	}
	if v.Name != "" {
		candidates = append(candidates, action+camel(v.Name))
	}
	candidates = append(candidates, action+camel(strings.NewReplacer("/", " ", "{", " ", "}", " ", "_", " ", "-", " ").Replace(path)))
	for _, c := range candidates {
		if !gen.opIDs[c] {
			gen.opIDs[c] = true
			return c
		}
	}
	base := candidates[len(candidates)-1]
	for n := 2; ; n++ {
		if c := base + strconv.Itoa(n); !gen.opIDs[c] {
			gen.opIDs[c] = true
			return c
		}
	}
}

// camel joins the words of s with capitals: "Who Am I" gives "WhoAmI".
func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.Fields(s) {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}
