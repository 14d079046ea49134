package framework

import "encoding/json"

// OperationSchema is what a view says of one of its operations in an
// OpenAPI document beyond what its policies tell, as drf-spectacular's
// extend_schema does: View.Schema holds one per HTTP method, and the one
// under "" applies to every method first. The schemas package reads it.
type OperationSchema struct {
	// Exclude leaves the operation out of the documents.
	Exclude bool
	// Summary is the operation's one-line summary.
	Summary string
	// Description replaces the view's Description.
	Description string
	// Tags replace the path's first segment.
	Tags []string
	// Deprecated marks the operation deprecated.
	Deprecated bool
	// Request describes the body of a view without a Describer (one that
	// validates with a serializer of its own): its request body and the
	// fields of its 400 answer.
	Request *SerializerDescription
	// Responses add answers by status, or replace those of the same
	// status.
	Responses map[int]ResponseSchema
}

// ResponseSchema is one answer of an OperationSchema.
type ResponseSchema struct {
	// Description is the answer's description; "" gives the status text.
	Description string
	// Serializer describes the body; Schema, as JSON Schema text, when no
	// serializer does. Neither: an answer with no body.
	Serializer *SerializerDescription
	Schema     json.RawMessage
	// Examples are sample bodies by name (drf-spectacular's
	// OpenApiExample), each as JSON text.
	Examples map[string]json.RawMessage
}
