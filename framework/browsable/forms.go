package browsable

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/rawjson"
)

// editForm is one edit block of the page: POST on a list, PUT (and PATCH)
// on an item. The HTML form tab is built from the view's serializer; the
// raw data tab sends a body as typed.
type editForm struct {
	// ID prefixes the elements' ids: "post" or "put".
	ID string
	// Fields are the HTML form's inputs; none when the view has no
	// serializer or parses no form.
	Fields []formField
	// HTMLMethod is the HTML form's button: POST or PUT.
	HTMLMethod string
	// RawMethods are the raw data form's buttons: POST, or PUT and PATCH.
	RawMethods []string
	// Content is the raw data's initial text.
	Content string
}

// formField is one input of an HTML form.
type formField struct {
	Name, Label string
	// Input is the input's type: text, number, checkbox, datetime-local,
	// email, url, file, select (a choice field's, with Multiple for a multiple
	// choice field's), textarea (a JSON field's or a text field's, as
	// DRF's styles), or "" for a field that HTML input cannot hold (a list
	// or a dictionary: Note says so, in DRF's words).
	Input string
	// Options are a select's options; Multiple makes it a multiple select.
	Options  []formOption
	Multiple bool
	// Note replaces the input of a field that HTML cannot hold.
	Note string
	// Value is the initial value; Checked that of a checkbox.
	Value   string
	Checked bool
	// Errors are the field's errors in the answer to this form's own
	// request, shown under its input as DRF's help-block.
	Errors []string
	// Required, MaxLength, Min, Max and Step repeat the serializer's rules
	// (the form is sent unchecked, as DRF's novalidate forms are, so that
	// the answer shows the API's own messages).
	Required  bool
	MaxLength int
	Min, Max  string
	Step      string
}

// formOption is one option of a select.
type formOption struct {
	Value, Label       string
	Selected, Disabled bool
}

// permitted reports whether r's user may send method to v (DRF's
// show_form_for_method): the method is allowed and the permissions (and,
// through the view's Describer, the object's) let it through.
func permitted(v *framework.View, r *request.Request, method string) (bool, error) {
	if !slices.Contains(v.AllowedMethods(), method) {
		return false, nil
	}
	if v.Describer != nil {
		return v.Describer.Allows(v, r, method)
	}
	err := v.CheckPermissions(request.As(r, method))
	var api interface{ StatusCode() int }
	if err != nil && !errors.As(err, &api) {
		return false, err
	}
	return err == nil, nil
}

// addForms sets the buttons and edit forms r's user may use: OPTIONS and
// DELETE when permitted, and unless the answer is a 403 (DRF's
// display_edit_forms), a POST form and a PUT/PATCH form when permitted.
// body is the answer rendered as JSON, the PUT form's initial content.
func (p *pageData) addForms(v *framework.View, r *request.Request, resp *framework.Response, body []byte) error {
	may := map[string]bool{}
	for _, m := range []string{http.MethodOptions, http.MethodDelete, http.MethodPost, http.MethodPut, http.MethodPatch} {
		ok, err := permitted(v, r, m)
		if err != nil {
			return err
		}
		may[m] = ok
	}
	p.Options, p.Delete = may[http.MethodOptions], may[http.MethodDelete]
	if resp.Status == http.StatusForbidden {
		return nil
	}
	for _, parser := range v.Parsers.Items() {
		p.MediaTypes = append(p.MediaTypes, parser.MediaType())
	}
	formType := ""
	for _, t := range []string{"application/x-www-form-urlencoded", "multipart/form-data"} {
		if slices.Contains(p.MediaTypes, t) {
			formType = t
			break
		}
	}
	p.FormType = formType
	// Each form's fields are those of the serializer of its own method, as
	// DRF's override_method asks get_serializer for them.
	fieldsOf := map[string][]framework.FieldDescription{}
	for _, m := range []string{http.MethodPost, http.MethodPut} {
		if v.Describer == nil || !may[m] {
			continue
		}
		ser, err := v.Describer.SerializerOf(v, request.As(r, m))
		if err != nil {
			return err
		}
		if ser != nil {
			fieldsOf[m] = ser.Fields
		}
		if slices.ContainsFunc(fieldsOf[m], isFileField) && slices.Contains(p.MediaTypes, "multipart/form-data") {
			// A file goes only in a multipart body.
			formType = "multipart/form-data"
			p.FormType = formType
		}
	}
	if formType != "" {
		for m, fields := range fieldsOf {
			var err error
			if fieldsOf[m], err = relatedChoices(v, r, fields); err != nil {
				return err
			}
		}
	}
	// The field errors of a refused form, shown under its inputs.
	var refused map[string][]string
	if resp.Status == http.StatusBadRequest {
		_ = json.Unmarshal(body, &refused)
	}
	// The item the answer shows, for PUT: a successful GET of a JSON object.
	var item map[string]any
	if v.Describer != nil && r.Method == http.MethodGet && resp.Status == http.StatusOK {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if dec.Decode(&item) != nil {
			item = nil
		}
	}
	errorsOf := func(method string, fields []formField) []formField {
		if r.Method == method {
			for i := range fields {
				fields[i].Errors = refused[fields[i].Name]
			}
		}
		return fields
	}
	if may[http.MethodPost] {
		f := editForm{ID: "post", HTMLMethod: http.MethodPost, RawMethods: []string{http.MethodPost}}
		if fields := fieldsOf[http.MethodPost]; fields != nil {
			f.Content = initialContent(fields)
			if formType != "" {
				f.Fields = errorsOf(http.MethodPost, htmlFields(fields, nil))
			}
		}
		p.Forms = append(p.Forms, f)
	}
	if may[http.MethodPut] || may[http.MethodPatch] {
		f := editForm{ID: "put", HTMLMethod: http.MethodPut}
		for _, m := range []string{http.MethodPut, http.MethodPatch} {
			if may[m] {
				f.RawMethods = append(f.RawMethods, m)
			}
		}
		if item != nil {
			f.Content = string(body)
		}
		if fields := fieldsOf[http.MethodPut]; fields != nil && formType != "" && may[http.MethodPut] {
			f.Fields = errorsOf(http.MethodPut, htmlFields(fields, item))
		}
		p.Forms = append(p.Forms, f)
	}
	return nil
}

// initialContent is DRF's raw data for a new item: each writable field's
// initial value (its initial=, else "" for strings, false for booleans,
// null otherwise), as JSON indented by 4.
func initialContent(fields []framework.FieldDescription) string {
	var b strings.Builder
	b.WriteString("{")
	n := 0
	for _, f := range fields {
		if f.ReadOnly {
			continue
		}
		if n > 0 {
			b.WriteString(",")
		}
		n++
		name, _ := json.Marshal(f.Name)
		b.WriteString("\n    " + string(name) + ": ")
		switch {
		case f.Initial != "":
			b.WriteString(f.Initial)
		case textTypes[f.Type] && f.Format == "":
			// A CharField's initial ""; a UUIDField's is None.
			b.WriteString(`""`)
		case f.Type == "list":
			b.WriteString("[]")
		case f.Type == "nested object":
			b.WriteString("{}")
		case f.Type == "boolean":
			b.WriteString("false")
		default:
			b.WriteString("null")
		}
	}
	if n > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}

// isFileField reports a writable FileField or ImageField.
func isFileField(f framework.FieldDescription) bool {
	return !f.ReadOnly && (f.Type == "file upload" || f.Type == "image upload")
}

// textTypes are the OPTIONS types of DRF's CharField and its subclasses.
var textTypes = map[string]bool{"string": true, "email": true, "url": true, "slug": true, "regex": true}

// htmlFields are the inputs of the writable fields, with the item's
// values when it is given, else each field's initial= (DRF's form of an
// unbound serializer).
func htmlFields(fields []framework.FieldDescription, item map[string]any) []formField {
	var out []formField
	var initial map[string]any
	for _, f := range fields {
		if item == nil && f.Initial != "" && !f.ReadOnly {
			dec := json.NewDecoder(strings.NewReader(f.Initial))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) == nil {
				if initial == nil {
					initial = map[string]any{}
				}
				initial[f.Name] = v
			}
		}
	}
	if item == nil {
		item = initial
	}
	for _, f := range fields {
		if f.ReadOnly {
			continue
		}
		in := formField{Name: f.Name, Label: f.Label, Input: "text", Required: f.Required,
			MaxLength: f.MaxLength, Min: f.MinValue, Max: f.MaxValue}
		switch f.Type {
		case "integer":
			in.Input, in.Step = "number", "1"
		case "float":
			in.Input, in.Step = "number", "any"
		case "boolean":
			in.Input = "checkbox"
		case "datetime":
			in.Input, in.Step = "datetime-local", "1"
		case "date":
			in.Input = "date"
		case "time":
			in.Input, in.Step = "time", "1"
		case "email", "url":
			in.Input = f.Type
		case "choice", "multiple choice":
			in.Input, in.Multiple, in.MaxLength = "select", f.Type == "multiple choice", -1
			in.Options = options(f, item[f.Name])
		case "file upload", "image upload":
			in.Input, in.MaxLength = "file", -1
		case "list":
			in.Input, in.Note = "", "Lists are not currently supported in HTML input."
		case "nested object":
			in.Input, in.Note = "", "Dictionaries are not currently supported in HTML input."
		}
		if f.Related && f.Choices != nil {
			// DRF's select of the related rows (select_multiple.html for
			// many=True).
			in.Input, in.Multiple, in.MaxLength = "select", f.Many, -1
			in.Options = options(f, item[f.Name])
		}
		if f.Format == "json" || f.TextArea {
			in.Input = "textarea"
		}
		switch value := item[f.Name].(type) {
		case string:
			in.Value = value
			if t, err := time.Parse(time.RFC3339Nano, value); err == nil && in.Input == "datetime-local" {
				in.Value = t.UTC().Format("2006-01-02T15:04:05")
			}
		case json.Number:
			in.Value = value.String()
		case bool:
			in.Checked = value
		}
		if f.Format == "json" && item != nil {
			in.Value = jsonText(item[f.Name])
		}
		out = append(out, in)
	}
	return out
}

// options are the options of a choice field's select, those of value
// (a choice, or a list of them) selected; a field that may be blank or
// null has the empty option "--------" first, as DRF's select.html.
func options(f framework.FieldDescription, value any) []formOption {
	selected := map[string]bool{}
	values, ok := value.([]any)
	if !ok && value != nil {
		values = []any{value}
	}
	for _, v := range values {
		switch v := v.(type) {
		case string:
			selected[v] = true
		case json.Number:
			selected[v.String()] = true
		}
	}
	var out []formOption
	if (f.Type == "choice" || f.Related) && (f.AllowBlank || f.AllowNull) {
		out = append(out, formOption{Label: "--------", Selected: len(selected) == 0 || selected[""]})
	}
	for _, c := range f.Choices {
		cutoff := f.Related && c.Value == framework.RelatedCutoff
		out = append(out, formOption{Value: c.Value, Label: c.Label, Selected: selected[c.Value] && !cutoff, Disabled: cutoff})
	}
	return out
}

// relatedChoices gives the writable relational fields their choices, the
// related rows the view's Describer lists (a framework.RelatedLister),
// once per field; fields is copied when it changes.
func relatedChoices(v *framework.View, r *request.Request, fields []framework.FieldDescription) ([]framework.FieldDescription, error) {
	lister, ok := v.Describer.(framework.RelatedLister)
	if !ok {
		return fields, nil
	}
	copied := false
	for i, f := range fields {
		if !f.Related || f.ReadOnly {
			continue
		}
		choices, err := lister.RelatedChoices(v, r, f.Name)
		if err != nil {
			return nil, err
		}
		if !copied {
			fields, copied = slices.Clone(fields), true
		}
		fields[i].Choices = choices
	}
	return fields, nil
}

// jsonText is a JSON field's value in its form, as DRF's JSONBoundField
// writes it: indented by four spaces with sorted keys; "" for null.
func jsonText(v any) string {
	if v == nil {
		return ""
	}
	b, err := rawjson.MarshalIndent(v, "    ")
	if err != nil {
		return ""
	}
	return string(b)
}

// breadcrumbs names each prefix of r's path that a view of v's API
// answers (View.EndpointAt), from the root to the page itself (DRF's
// get_breadcrumbs): the path, then the path without its last segment, and
// so on; the same view twice in a row once. The format parameter of the
// request is kept on each link.
func breadcrumbs(v *framework.View, r *request.Request, formatParam string) []link {
	query := ""
	if f := r.QueryParam(formatParam); f != "" {
		query = "?" + url.Values{formatParam: {f}}.Encode()
	}
	var crumbs []link
	var last *framework.View
	path := r.URL.Path
	for path != "" {
		if e, ok := v.EndpointAt(r.Request, path); ok && e.View != last {
			crumbs = append(crumbs, link{Text: cmp.Or(e.View.Name, path), URL: path + query})
			last = e.View
		}
		if strings.HasSuffix(path, "/") {
			path = strings.TrimSuffix(path, "/")
		} else {
			path = path[:strings.LastIndexByte(path, '/')+1]
		}
	}
	slices.Reverse(crumbs)
	if len(crumbs) > 0 && strings.TrimSuffix(crumbs[len(crumbs)-1].URL, query) == r.URL.Path {
		crumbs[len(crumbs)-1].Current = true
	}
	return crumbs
}
