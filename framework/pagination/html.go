package pagination

import (
	"bytes"
	"html/template"
	"slices"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
)

// Controls is implemented by pages that have HTML pagination controls for
// the browsable API. The browsable renderer calls HTMLControls on
// Response.Page and shows what it returns; "" means no controls: the
// style's template is none, the page does not display them (a single
// page), or the template failed (which is logged).
type Controls interface {
	HTMLControls() template.HTML
}

// ControlsData is what a controls template is executed with.
type ControlsData struct {
	// PreviousURL and NextURL are the page's links, "" when absent.
	PreviousURL, NextURL string
	// PageLinks are the numbered links, with breaks; empty for cursors.
	PageLinks []PageLink
}

// PageLink is one entry of the numbered controls: a page, or a break
// ("…") standing for the pages left out.
type PageLink struct {
	URL      string
	Number   int
	IsActive bool
	IsBreak  bool
}

// NumbersTemplate is the default controls template of the page-number
// and limit/offset styles: previous, the displayed page numbers with
// breaks, next (DRF 3.18's pagination/numbers.html, whose inline style
// DRF 3.15 removed, #8783).
var NumbersTemplate = numbers(`<ul class="pagination">`)

// numbersTemplate314 is NumbersTemplate as DRF 3.14 writes it, with an
// inline style; the default at DRF 3.14 level.
var numbersTemplate314 = numbers(`<ul class="pagination" style="margin: 5px 0 10px 0">`)

func numbers(open string) *template.Template {
	return template.Must(template.New("numbers").Parse(open + `
{{- if .PreviousURL}}
  <li><a href="{{.PreviousURL}}" aria-label="Previous"><span aria-hidden="true">&laquo;</span></a></li>
{{- else}}
  <li class="disabled"><a href="#" aria-label="Previous"><span aria-hidden="true">&laquo;</span></a></li>
{{- end}}
{{- range .PageLinks}}
{{- if .IsBreak}}
  <li class="disabled"><a href="#"><span aria-hidden="true">&hellip;</span></a></li>
{{- else if .IsActive}}
  <li class="active"><a href="{{.URL}}">{{.Number}}</a></li>
{{- else}}
  <li><a href="{{.URL}}">{{.Number}}</a></li>
{{- end}}
{{- end}}
{{- if .NextURL}}
  <li><a href="{{.NextURL}}" aria-label="Next"><span aria-hidden="true">&raquo;</span></a></li>
{{- else}}
  <li class="disabled"><a href="#" aria-label="Next"><span aria-hidden="true">&raquo;</span></a></li>
{{- end}}
</ul>
`))
}

// PreviousNextTemplate is the default controls template of the cursor
// styles: a pager with previous and next, their rel and aria attributes
// as DRF 3.18's pagination/previous_and_next.html has them (#9905).
var PreviousNextTemplate = template.Must(template.New("previous_and_next").Parse(`<ul class="pager">
{{- if .PreviousURL}}
  <li class="previous"><a href="{{.PreviousURL}}" rel="prev" aria-label="Previous page">&laquo; Previous</a></li>
{{- else}}
  <li class="previous disabled" aria-disabled="true"><a href="#" tabindex="-1" aria-disabled="true">&laquo; Previous</a></li>
{{- end}}
{{- if .NextURL}}
  <li class="next"><a href="{{.NextURL}}" rel="next" aria-label="Next page">Next &raquo;</a></li>
{{- else}}
  <li class="next disabled" aria-disabled="true"><a href="#" tabindex="-1" aria-disabled="true">Next &raquo;</a></li>
{{- end}}
</ul>
`))

// previousNextTemplate314 is PreviousNextTemplate as DRF 3.14 writes it,
// without those attributes; the default at DRF 3.14 level.
var previousNextTemplate314 = template.Must(template.New("previous_and_next").Parse(`<ul class="pager">
{{- if .PreviousURL}}
  <li class="previous"><a href="{{.PreviousURL}}">&laquo; Previous</a></li>
{{- else}}
  <li class="previous disabled"><a href="#">&laquo; Previous</a></li>
{{- end}}
{{- if .NextURL}}
  <li class="next"><a href="{{.NextURL}}">Next &raquo;</a></li>
{{- else}}
  <li class="next disabled"><a href="#">Next &raquo;</a></li>
{{- end}}
</ul>
`))

// levelTemplate is a style's Template as Setup resolves it: unset, the
// DRF 3.14 default legacy at that level (else nil, the current default).
func levelTemplate(t *template.Template, s *framework.Settings, legacy *template.Template) *template.Template {
	if t == nil && s.Compatibility == framework.DRF314 {
		return legacy
	}
	return t
}

// NoTemplate is the Template of a style without HTML controls
// (template = None); a nil Template gives the style's default.
var NoTemplate = template.New("none")

// controls is the template and display flag every page carries.
type controls struct {
	tmpl    *template.Template
	display bool
	// r is the page's request, whose logger reports a failing template.
	r *request.Request
}

func newControls(r *request.Request, t, def *template.Template) controls {
	switch t {
	case nil:
		return controls{tmpl: def, r: r}
	case NoTemplate:
		return controls{}
	}
	return controls{tmpl: t, r: r}
}

// DisplayControls reports whether the browsable API shows the page's
// controls (display_page_controls): the built-in styles show them when
// there is more than one page, unless the template is none.
func (c *controls) DisplayControls() bool { return c.display }

// SetDisplayControls switches the controls on or off, for custom styles;
// a style whose template is none still shows none.
func (c *controls) SetDisplayControls(on bool) { c.display = on && c.tmpl != nil }

func (c *controls) render(data func() ControlsData) template.HTML {
	if !c.display {
		return ""
	}
	var b bytes.Buffer
	if err := c.tmpl.Execute(&b, data()); err != nil {
		c.r.Logger().ErrorContext(c.r.Context(), "pagination: controls template failed", "template", c.tmpl.Name(), "error", err.Error())
		return ""
	}
	return template.HTML(b.String())
}

// displayedPages chooses the page numbers the numbered controls show, 0
// standing for a break: all of them up to five pages; else the first,
// the last, the current one with one neighbour each side, widened near
// either end so that a break never hides a single page. For example
// current 14 of 16 gives 1 … 13 14 15 16.
func displayedPages(current, final int) []int {
	if final <= 5 {
		pages := make([]int, final)
		for i := range pages {
			pages[i] = i + 1
		}
		return pages
	}
	cand := []int{1, current - 1, current, current + 1, final}
	if current <= 4 {
		cand = append(cand, 2, 3)
	}
	if current >= final-3 {
		cand = append(cand, final-1, final-2)
	}
	slices.Sort(cand)
	var pages []int
	for _, n := range slices.Compact(cand) {
		if n > 0 && n <= final {
			pages = append(pages, n)
		}
	}
	if current > 4 {
		pages = append(pages[:1], append([]int{0}, pages[1:]...)...)
	}
	if current < final-3 {
		last := len(pages) - 1
		pages = append(pages[:last], 0, pages[last])
	}
	return pages
}

// pageLinks turns displayed page numbers into links.
func pageLinks(pages []int, current int, link func(int) string) []PageLink {
	out := make([]PageLink, len(pages))
	for i, n := range pages {
		if n == 0 {
			out[i] = PageLink{IsBreak: true}
			continue
		}
		out[i] = PageLink{URL: link(n), Number: n, IsActive: n == current}
	}
	return out
}
