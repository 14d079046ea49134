package framework

import (
	"encoding/json"

	"github.com/go-drf/drf/framework/request"
)

// metadata is the OPTIONS answer, DRF's SimpleMetadata without actions.
type metadata struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Renders     []string `json:"renders"`
	Parses      []string `json:"parses"`
}

// Metadata describes the view for an OPTIONS request.
func Metadata(v *View, r *request.Request) any { return metadataOf(v) }

func metadataOf(v *View) metadata {
	m := metadata{Name: v.Name, Description: v.Description, Renders: []string{}, Parses: []string{}}
	for _, rd := range v.Renderers.items {
		m.Renders = append(m.Renders, rd.MediaType())
	}
	for _, p := range v.Parsers.items {
		m.Parses = append(m.Parses, p.MediaType())
	}
	return m
}

// MetadataWithActions is Metadata with DRF's "actions": for each method
// given, the fields its serializer accepts (a serializer's FieldInfo), as
// SimpleMetadata answers OPTIONS on a view that takes writes the caller
// may send.
func MetadataWithActions(v *View, r *request.Request, actions map[string]json.RawMessage) any {
	return metadataWithActions{metadataOf(v), actions}
}

type metadataWithActions struct {
	metadata
	Actions map[string]json.RawMessage `json:"actions"`
}
