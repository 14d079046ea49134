package browsable_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// Note is the model of the form tests.
type Note struct {
	ID    int64  `db:"id" json:"id" drf:"read_only"`
	Text  string `db:"text" json:"text" drf:"required,max_length=200"`
	Stars int    `db:"stars" json:"stars" drf:"min_value=0,max_value=5"`
	Done  bool   `db:"done" json:"done"`
}

// notes serves a model viewset of notes that anyone reads and users
// (X-User) write, at /notes/ and /notes/{pk}/, and an admin-only view.
func notes(t *testing.T) *httptest.Server {
	t.Helper()
	api := framework.NewAPI(nil, settings)
	vs := &generics.ModelViewSet[Note]{}
	vs.Source = queryset.MustSlice([]Note{{ID: 1, Text: "one <b>", Stars: 3, Done: true}})
	vs.Serializer = serializers.MustNew[Note]()
	vs.Description = "Notes to self."
	vs.Permissions = framework.Permissions(framework.IsAuthenticatedOrReadOnly{})
	keep := func(*request.Request, *Note) error { return nil }
	vs.PerformCreate, vs.PerformUpdate, vs.PerformDestroy = keep, keep, keep
	var router routers.SimpleRouter
	router.Register("notes", vs, "note")
	router.Mount(api)
	api.Handle("/notes/admin/", framework.View{Name: "Admin", Permissions: framework.Permissions(framework.IsAdminUser{}),
		Get: books().Get, Post: books().Post})
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return srv
}

// An anonymous user who may only read sees no POST, PUT or DELETE form;
// the OPTIONS button stays.
func TestFormsHiddenFromWhoMayNotUseThem(t *testing.T) {
	srv := notes(t)
	list := html(t, srv, "/notes/")
	mustContain(t, list, `id="options-form"`, `id="get"`, `class="formats"`)
	mustNotContain(t, list, `id="send"`, `id="post-`, `id="put-`, `id="delete-form"`)
	item := html(t, srv, "/notes/1/")
	mustContain(t, item, `id="options-form"`)
	mustNotContain(t, item, `id="send"`, `id="put-`, `id="delete-form"`)
	// A user who gets 403 sees no edit form either.
	admin := html(t, srv, "/notes/admin/", "X-User", "alice")
	mustContain(t, admin, "<b>HTTP 403 Forbidden</b>")
	mustNotContain(t, admin, `id="send"`, `id="post-`)
}

// The POST form of a list: the HTML form built from the serializer's
// writable fields, beside the raw data with each field's initial value.
func TestHTMLFormFromTheSerializer(t *testing.T) {
	body := html(t, notes(t), "/notes/", "X-User", "alice")
	mustContain(t, body,
		`<p class="description">Notes to self.</p>`,
		`<button type="button" role="tab" aria-selected="true" aria-controls="post-html-form">HTML form</button>`,
		`<form class="send html" id="post-html-form" role="tabpanel" novalidate>`,
		`<label for="post-text">Text *</label><input type="text" id="post-text" name="text" value="" maxlength="200">`,
		`<label for="post-stars">Stars</label><input type="number" id="post-stars" name="stars" value="" min="0" max="5" step="1">`,
		`<label for="post-done">Done</label><input type="checkbox" id="post-done" name="done" value="true">`,
		`<button type="submit" name="method" value="POST">POST</button>`,
		`<form class="send raw" id="post-raw-form" role="tabpanel" hidden>`,
		"{\n    &#34;text&#34;: &#34;&#34;,\n    &#34;stars&#34;: null,\n    &#34;done&#34;: false\n}</textarea>",
		`data-form-type="application/x-www-form-urlencoded"`,
	)
	mustNotContain(t, body, `name="id"`, `id="put-`, `id="delete-form"`)
}

// The PUT form of an item is filled with the item; the raw data holds its
// representation, sent by PUT or PATCH; breadcrumbs lead back to the list.
func TestPutFormFilledWithTheItem(t *testing.T) {
	body := html(t, notes(t), "/notes/1/?format=api", "X-User", "alice")
	mustContain(t, body,
		`<nav class="breadcrumbs" aria-label="breadcrumbs"><ol><li><a href="/notes/?format=api">Note List</a></li><li><a href="/notes/1/?format=api" aria-current="page">Note Instance</a></li></ol></nav>`,
		`<input type="text" id="put-text" name="text" value="one &lt;b&gt;" maxlength="200">`,
		`<input type="number" id="put-stars" name="stars" value="3" min="0" max="5" step="1">`,
		`<input type="checkbox" id="put-done" name="done" value="true" checked>`,
		`<button type="submit" name="method" value="PUT">PUT</button>`,
		`<textarea id="put-raw-content" name="content" rows="10">{
    &#34;id&#34;: 1,
    &#34;text&#34;: &#34;one &lt;b&gt;&#34;,`,
		`<button type="submit" name="method" value="PUT">PUT</button><button type="submit" name="method" value="PATCH">PATCH</button>`,
		`<form class="send" id="delete-form">`,
	)
	mustNotContain(t, body, `id="post-`)
}

// The breadcrumbs name a view registered WithMiddleware, in a Route
// child too (issue 44: the handler registry the page used missed them).
func TestBreadcrumbsFindViewsBehindMiddleware(t *testing.T) {
	api := framework.NewAPI(nil, settings)
	pass := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
	}
	api.Route("/shelf", "", func(api *framework.API) {
		api.Handle("/books/", books(), framework.WithMiddleware(pass))
		api.Handle("/books/{pk}/", framework.View{Name: "Book Detail", Get: books().Get}, framework.WithMiddleware(pass))
	})
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	mustContain(t, html(t, srv, "/shelf/books/1/"),
		`<nav class="breadcrumbs" aria-label="breadcrumbs"><ol><li><a href="/shelf/books/">Book List</a></li><li><a href="/shelf/books/1/" aria-current="page">Book Detail</a></li></ol></nav>`)
}

// Snippet is a model of the tutorial's kind: a TextField, choices with
// a default and blank ones, an email and a URL, a multiple choice and a
// list.
type Snippet struct {
	ID       int64    `db:"id" json:"id"`
	Code     string   `db:"code" json:"code"`
	Language string   `db:"language" json:"language" model:"max_length=100,default=python"`
	Style    string   `db:"style" json:"style" model:"max_length=100,blank"`
	Email    string   `db:"email" json:"email" model:"field=EmailField,blank"`
	Homepage string   `db:"homepage" json:"homepage" model:"field=URLField,blank"`
	Colors   []string `json:"colors"`
	Tags     []string `json:"tags"`
}

// Meta gives the choices of language and style.
func (Snippet) Meta() models.Meta {
	return models.Meta{App: "snippets", Choices: map[string][]models.Choice{
		"language": {{Value: "go", Label: "Go"}, {Value: "python", Label: "Python"}},
		"style":    {{Value: "friendly", Label: "friendly"}, {Value: "monokai", Label: "monokai"}},
	}}
}

// The forms of DRF's HTMLFormRenderer for the same serializer
// (testdata/drf_fields.py of framework/serializers): a select for a
// choice field with the item's value selected (and DRF's "--------"
// option first when the field may be blank), a multiple select for a
// multiple choice field, a textarea that keeps a TextField's newlines,
// email and url inputs, and DRF's note for a list; the raw data starts a
// choice at null and a list at [].
func TestFormsOfEveryFieldType(t *testing.T) {
	api := framework.NewAPI(nil, settings)
	vs := &generics.ModelViewSet[Snippet]{}
	vs.Source = queryset.MustSlice([]Snippet{{ID: 1, Code: "a\n<b>", Language: "go", Colors: []string{"red"}}})
	vs.Serializer = serializers.MustNew[Snippet](serializers.Choices("colors",
		[]models.Choice{{Value: "red", Label: "Red"}, {Value: "green", Label: "Green"}}))
	keep := func(*request.Request, *Snippet) error { return nil }
	vs.PerformCreate, vs.PerformUpdate, vs.PerformDestroy = keep, keep, keep
	var router routers.SimpleRouter
	router.Register("snippets", vs, "snippet")
	router.Mount(api)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)

	list := html(t, srv, "/snippets/", "X-User", "alice")
	mustContain(t, list,
		`<label for="post-code">Code *</label><textarea id="post-code" name="code" rows="5"></textarea>`,
		`<label for="post-language">Language</label><select id="post-language" name="language"><option value="go">Go</option><option value="python">Python</option></select>`,
		`<select id="post-style" name="style"><option value="" selected>--------</option><option value="friendly">friendly</option><option value="monokai">monokai</option></select>`,
		`<input type="email" id="post-email" name="email" value="" maxlength="254">`,
		`<input type="url" id="post-homepage" name="homepage" value="" maxlength="200">`,
		`<select id="post-colors" name="colors" multiple><option value="red">Red</option><option value="green">Green</option></select>`,
		`<label for="post-tags">Tags</label><p class="static" id="post-tags">Lists are not currently supported in HTML input.</p>`,
		"&#34;language&#34;: null,",
		"&#34;colors&#34;: null,\n    &#34;tags&#34;: []\n}",
	)
	item := html(t, srv, "/snippets/1/", "X-User", "alice")
	mustContain(t, item,
		"<textarea id=\"put-code\" name=\"code\" rows=\"5\">a\n&lt;b&gt;</textarea>",
		`<select id="put-language" name="language"><option value="go" selected>Go</option><option value="python">Python</option></select>`,
		`<select id="put-colors" name="colors" multiple><option value="red" selected>Red</option><option value="green">Green</option></select>`,
	)
}

// selectRE and optionRE read the selects of a form: DRF's (attributes in
// any order, spaces around selected) and the page's.
var (
	selectRE = regexp.MustCompile(`(?s)<select[^>]*name="(\w+)"[^>]*>(.*?)</select>`)
	optionRE = regexp.MustCompile(`<option value="([^"]*)"\s*(selected)?\s*>([^<]*)</option>`)
)

// selects lists each select's options as "value=label" with a "*" for a
// selected one.
func selects(body string) map[string][]string {
	out := map[string][]string{}
	for _, s := range selectRE.FindAllStringSubmatch(body, -1) {
		for _, o := range optionRE.FindAllStringSubmatch(s[2], -1) {
			opt := o[1] + "=" + o[3]
			if o[2] != "" {
				opt += "*"
			}
			out[s[1]] = append(out[s[1]], opt)
		}
	}
	return out
}

// The selects of the page's PUT form hold the options DRF's
// HTMLFormRenderer renders for the same fields and values
// (framework/serializers/testdata/drf_fields.py: the model form filled
// with language "go", the extras form with colors ["red"]).
func TestSelectsAsDRFRendersThem(t *testing.T) {
	var drf struct {
		Model  string `json:"model_form_filled"`
		Extras string `json:"extras_form_filled"`
	}
	drfsuite.RunDRF(t, framework.DRF314, "../serializers/testdata/drf_fields.py", nil, &drf)
	want := map[string][]string{"language": selects(drf.Model)["language"], "colors": selects(drf.Extras)["colors"]}
	if len(want["language"]) != 2 || len(want["colors"]) != 2 {
		t.Fatalf("DRF's selects not found: %v", want)
	}
	api := framework.NewAPI(nil, settings)
	vs := &generics.ModelViewSet[Snippet]{}
	vs.Source = queryset.MustSlice([]Snippet{{ID: 1, Code: "a\nb", Language: "go", Colors: []string{"red"}}})
	vs.Serializer = serializers.MustNew[Snippet](serializers.Choices("colors",
		[]models.Choice{{Value: "red", Label: "Red"}, {Value: "green", Label: "Green"}}))
	keep := func(*request.Request, *Snippet) error { return nil }
	vs.PerformCreate, vs.PerformUpdate, vs.PerformDestroy = keep, keep, keep
	var router routers.SimpleRouter
	router.Register("snippets", vs, "snippet")
	router.Mount(api)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	got := selects(html(t, srv, "/snippets/1/", "X-User", "alice"))
	for name, w := range want {
		if !slices.Equal(got[name], w) {
			t.Errorf("select %s: %v, DRF's %v", name, got[name], w)
		}
	}
}

// drfSnippet and drfExtras are framework/serializers' testdata/drf_fields.py's
// model and serializer.
type drfSnippet struct {
	ID       int64     `db:"id" json:"id"`
	Created  time.Time `db:"created" json:"created" model:"auto_now_add"`
	Title    string    `db:"title" json:"title" model:"max_length=100,blank,default="`
	Code     string    `db:"code" json:"code"`
	Linenos  bool      `db:"linenos" json:"linenos" model:"default=false"`
	Language string    `db:"language" json:"language" model:"max_length=100,default=python"`
	Email    *string   `db:"email" json:"email" model:"field=EmailField"`
	Homepage string    `db:"homepage" json:"homepage" model:"field=URLField,blank"`
	Slug     string    `db:"slug" json:"slug" model:"field=SlugField,unique"`
	IP       *string   `db:"ip" json:"ip" model:"field=GenericIPAddressField,blank"`
	Hidden   int       `db:"hidden" json:"hidden" model:"editable=false,default=0"`
	Rank     int       `db:"rank" json:"rank" model:"field=PositiveIntegerField,default=1"`
}

func (drfSnippet) Meta() models.Meta {
	return models.Meta{App: "snippets", Choices: map[string][]models.Choice{"language": {{Value: "go", Label: "Go"}, {Value: "python", Label: "Python"}}}}
}

type drfExtras struct {
	ID     int64          `db:"id" json:"id" drf:"read_only"`
	Color  string         `json:"color" drf:"required"`
	Colors []string       `json:"colors"`
	Email  string         `json:"email" drf:"required,email"`
	URL    string         `json:"url" drf:"url"`
	Code   string         `json:"code"`
	Slug   string         `json:"slug" drf:"slug"`
	IP     string         `json:"ip" drf:"ip"`
	Tags   []int          `json:"tags"`
	Scores map[string]int `json:"scores"`
	Words  []string       `json:"words" drf:"child.max_length=3"`
	Note   string         `json:"note" drf:"textarea"`
	Owner  int64          `json:"-"`
}

// keepAll makes a viewset's writes keep nothing.
func keepAll[T any](vs *generics.ModelViewSet[T]) {
	keep := func(*request.Request, *T) error { return nil }
	vs.PerformCreate, vs.PerformUpdate, vs.PerformDestroy = keep, keep, keep
}

var (
	ourBlockRE  = regexp.MustCompile(`<div class="field">.*?</div>`)
	labelRE     = regexp.MustCompile(`(?s)<label[^>]*>\s*(?:<input[^>]*>)?\s*([^<*]*?)\s*(?:\*\s*)?(?:</label>|$)`)
	inputTypeRE = regexp.MustCompile(`<input[^>]*type="(\w+)"`)
	noteRE      = regexp.MustCompile(`<p class="[^"]*"[^>]*>([^<]*)</p>`)
)

// widgets lists a form's inputs by label: select, select multiple,
// textarea, an input's type, or the note of a field HTML cannot hold.
func widgets(blocks []string) map[string]string {
	out := map[string]string{}
	for _, b := range blocks {
		label := labelRE.FindStringSubmatch(b)
		if label == nil {
			continue
		}
		kind := ""
		switch {
		case strings.Contains(b, "<select multiple") || strings.Contains(b, " multiple>"):
			kind = "select multiple"
		case strings.Contains(b, "<select"):
			kind = "select"
		case strings.Contains(b, "<textarea"):
			kind = "textarea"
		case inputTypeRE.MatchString(b):
			kind = inputTypeRE.FindStringSubmatch(b)[1]
		case noteRE.MatchString(b):
			kind = noteRE.FindStringSubmatch(b)[1]
		}
		out[strings.TrimSpace(label[1])] = kind
	}
	return out
}

// The POST forms of the model serializer and of the serializer of every
// other field type have, field by field, the inputs DRF 3.14's
// HTMLFormRenderer renders for the same serializers (drf_fields.py):
// a select, a multiple select, a textarea, a checkbox, email, url, number
// and text inputs, DRF's note for a list or a dictionary; read-only and
// hidden fields have none.
func TestFormInputsAsDRFRendersThem(t *testing.T) {
	var drf struct {
		Model  string `json:"model_form"`
		Extras string `json:"extras_form"`
	}
	drfsuite.RunDRF(t, framework.DRF314, "../serializers/testdata/drf_fields.py", nil, &drf)
	api := framework.NewAPI(nil, settings)
	var router routers.SimpleRouter
	snippets := &generics.ModelViewSet[drfSnippet]{}
	snippets.Source = queryset.MustSlice([]drfSnippet{})
	snippets.Serializer = serializers.MustNew[drfSnippet]()
	keepAll(snippets)
	router.Register("snippets", snippets, "snippet")
	colors := []models.Choice{{Value: "red", Label: "Red"}, {Value: "green", Label: "Green"}}
	extras := &generics.ModelViewSet[drfExtras]{}
	extras.Source = queryset.MustSlice([]drfExtras{})
	extras.Serializer = serializers.MustNew[drfExtras](serializers.Choices("color", colors), serializers.Choices("colors", colors),
		serializers.Regex("code", `^[A-Z]{3}$`),
		serializers.Computed("shout", func(*drfExtras, *serializers.Context) (any, error) { return "hi", nil }),
		serializers.HiddenField("Owner", func(*serializers.Context) (int64, error) { return 1, nil }))
	keepAll(extras)
	router.Register("extras", extras, "extra")
	router.Mount(api)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	for path, want := range map[string]string{"/snippets/": drf.Model, "/extras/": drf.Extras} {
		page := html(t, srv, path, "X-User", "alice")
		form := page[strings.Index(page, `id="post-html-form"`):]
		form = form[:strings.Index(form, "</form>")]
		got, w := widgets(ourBlockRE.FindAllString(form, -1)), widgets(strings.Split(want, `<div class="form-group`)[1:])
		if len(w) < 9 || !reflect.DeepEqual(got, w) {
			t.Errorf("%s: inputs\n got %v\nwant %v (DRF's)", path, got, w)
		}
	}
}
