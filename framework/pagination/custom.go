package pagination

import (
	"cmp"
	"net/http"
	"strings"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/request"
)

// LinkHeaderPagination is a custom style of the sample contract: page
// numbers, the bare page as the body, and the links in a Link header,
// `<URL>; rel="next", <URL>; rel="prev"`, only those that exist (no
// header on a single page). It is built on PageNumberPagination, whose
// settings it takes.
type LinkHeaderPagination struct{ PageNumberPagination }

// Setup returns the style with the page-number settings resolved.
func (p *LinkHeaderPagination) Setup(s *framework.Settings) (framework.Paginator, error) {
	c, err := p.PageNumberPagination.Resolve(s)
	if c == nil {
		return nil, err
	}
	return &LinkHeaderPagination{*c}, nil
}

// Paginate returns the requested page of q, answered with a Link header.
func (p *LinkHeaderPagination) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	page, err := p.Page(r, q)
	if page == nil {
		return nil, err
	}
	return &linkHeaderPage{page}, nil
}

// ResponseSchema is results itself: the body is the bare page.
func (p *LinkHeaderPagination) ResponseSchema(results any) any { return results }

type linkHeaderPage struct{ *NumberPage }

// Response answers data as it is, with the links in the Link header.
func (p *linkHeaderPage) Response(data any) *framework.Response {
	var links []string
	if next := p.NextLink(); next != "" {
		links = append(links, "<"+string(next)+`>; rel="next"`)
	}
	if prev := p.PreviousLink(); prev != "" {
		links = append(links, "<"+string(prev)+`>; rel="prev"`)
	}
	resp := ok(data, p)
	if len(links) > 0 {
		resp.Header = http.Header{"Link": {strings.Join(links, ", ")}}
	}
	return resp
}

// NestedLinksPagination is a custom style of the sample contract: page
// numbers, with next and previous nested under "links":
// {"links": {"next", "previous"}, "count", "results"}. It is built on
// PageNumberPagination, whose settings it takes.
type NestedLinksPagination struct{ PageNumberPagination }

// Setup returns the style with the page-number settings resolved.
func (p *NestedLinksPagination) Setup(s *framework.Settings) (framework.Paginator, error) {
	c, err := p.PageNumberPagination.Resolve(s)
	if c == nil {
		return nil, err
	}
	return &NestedLinksPagination{*c}, nil
}

// Paginate returns the requested page of q, answered with nested links.
func (p *NestedLinksPagination) Paginate(r *request.Request, q query.Query) (framework.Page, error) {
	page, err := p.Page(r, q)
	if page == nil {
		return nil, err
	}
	return &nestedLinksPage{page}, nil
}

// ResponseSchema is the JSON Schema of the nested envelope whose results
// the schema results describes.
func (p *NestedLinksPagination) ResponseSchema(results any) any {
	param := cmp.Or(p.PageQueryParam, defaultPageQueryParam)
	return envelopeSchema(map[string]any{
		"links": envelopeSchema(map[string]any{
			"next":     linkSchema(param + "=4"),
			"previous": linkSchema(param + "=2"),
		}, "next", "previous"),
		"count":   countSchema,
		"results": results,
	}, "count", "links", "results")
}

type nestedLinksPage struct{ *NumberPage }

// nestedLinks is the "links" object of NestedLinksPagination.
type nestedLinks struct {
	Next     Link `json:"next"`
	Previous Link `json:"previous"`
}

// nestedEnvelope is the body of NestedLinksPagination.
type nestedEnvelope struct {
	Links   nestedLinks `json:"links"`
	Count   int         `json:"count"`
	Results any         `json:"results"`
}

// Response answers {"links": {"next", "previous"}, "count", "results"}.
func (p *nestedLinksPage) Response(data any) *framework.Response {
	return ok(nestedEnvelope{Links: nestedLinks{Next: p.NextLink(), Previous: p.PreviousLink()}, Count: p.Count(), Results: data}, p)
}
