package framework

import (
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"unicode"

	"github.com/go-drf/drf/internal/rawjson"
)

// derivedName is the name DRF's get_view_name gives a view without one,
// read at registration from its first handler's Go name: a method value's
// receiver type ((*SnippetDetail).Get gives "Snippet Detail", a trailing
// "View" or "ViewSet" dropped), a function's own name (snippetList gives
// "Snippet List", as an @api_view function's). A closure, a method of a
// generic type or no handler give "": the page then shows the path.
func derivedName(v *View) string {
	for _, fn := range []HandlerFunc{v.Get, v.Post, v.Put, v.Patch, v.Delete} {
		if fn == nil {
			continue
		}
		f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
		if f == nil {
			return ""
		}
		return nameOf(f.Name())
	}
	return ""
}

// nameOf turns a function's runtime name into a view name, "" when it
// names no type or function of its own.
func nameOf(full string) string {
	name := full[strings.LastIndexByte(full, '/')+1:]
	_, name, _ = strings.Cut(name, ".") // the package
	if recv, ok := strings.CutSuffix(name, "-fm"); ok {
		recv = recv[:max(strings.LastIndexByte(recv, '.'), 0)]
		name = strings.TrimSuffix(strings.TrimPrefix(recv, "(*"), ")")
	}
	if name == "" || strings.ContainsAny(name, ".[]()*") {
		return ""
	}
	return ViewName(name)
}

// camelBoundary is DRF's camelcase_compiled: a capital after a lower-case
// letter, or one that starts a word (not followed by a capital or the end).
var camelBoundary = regexp.MustCompile(`([a-z])([A-Z])|([A-Z])([a-z0-9_])`)

// ViewName is DRF's get_view_name of a class or function name: a
// trailing "View", then "ViewSet", dropped, words split at capitals and
// underscores, each word title-cased ("SnippetDetail" gives "Snippet
// Detail", "snippet_list" and "snippetList" "Snippet List", "APIRoot"
// "Api Root").
func ViewName(name string) string {
	name = strings.TrimSuffix(name, "View")
	name = strings.TrimSuffix(name, "ViewSet")
	name = camelBoundary.ReplaceAllString(name, "$1 $2$3$4")
	name = camelBoundary.ReplaceAllString(name, "$1 $2$3$4")
	words := strings.FieldsFunc(name, func(r rune) bool { return r == ' ' || r == '_' })
	for i, w := range words {
		words[i] = title(w)
	}
	return strings.Join(words, " ")
}

// title is Python's str.title of one word.
func title(w string) string {
	r := []rune(strings.ToLower(w))
	for i := range r {
		if i == 0 || !unicode.IsLetter(r[i-1]) {
			r[i] = unicode.ToUpper(r[i])
		}
	}
	return string(r)
}

// Object is a JSON object whose members keep their order, as a Python
// dict's keys do, where encoding/json sorts a Go map's: DRF's hand-written
// API root, {"users": ..., "snippets": ...}, in that order.
type Object []Member

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value any
}

// AppendJSON appends the object, its members in order.
func (o Object) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(rawjson.AppendString(b, m.Key), ':')
		var err error
		if b, err = rawjson.Append(b, m.Value); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// MarshalJSON returns AppendJSON's text.
func (o Object) MarshalJSON() ([]byte, error) { return o.AppendJSON(nil) }
