package framework

import "github.com/go-drf/drf/framework/request"

// metadata is the OPTIONS answer, DRF's SimpleMetadata without actions.
type metadata struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Renders     []string `json:"renders"`
	Parses      []string `json:"parses"`
}

// Metadata describes the view for an OPTIONS request.
func Metadata(v *View, r *request.Request) any {
	m := metadata{Name: v.Name, Description: v.Description, Renders: []string{}, Parses: []string{}}
	for _, rd := range v.Renderers.items {
		m.Renders = append(m.Renders, rd.MediaType())
	}
	for _, p := range v.Parsers.items {
		m.Parses = append(m.Parses, p.MediaType())
	}
	return m
}
