package serializers_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// drfAnswers are DRF 3.14's answers for the serializers of
// testdata/drf_fields.py, which loadDRF runs (drfsuite.RunDRF).
type drfAnswers struct {
	ModelInfo    json.RawMessage `json:"model_info"`
	ExtrasInfo   json.RawMessage `json:"extras_info"`
	ModelErrors  map[string]drfResult
	ExtrasErrors map[string]drfResult
}

type drfResult struct {
	Errors json.RawMessage `json:"errors"`
	Valid  json.RawMessage `json:"valid"`
}

func loadDRF(t *testing.T) drfAnswers {
	t.Helper()
	var raw struct {
		drfAnswers
		ModelErrors  map[string]drfResult `json:"model_errors"`
		ExtrasErrors map[string]drfResult `json:"extras_errors"`
	}
	drfsuite.RunDRF(t, framework.DRF314, "testdata/drf_fields.py", nil, &raw)
	a := raw.drfAnswers
	a.ModelErrors, a.ExtrasErrors = raw.ModelErrors, raw.ExtrasErrors
	return a
}

// snippet is drf_fields.py's Snippet model.
type snippet struct {
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

var languages = []models.Choice{{Value: "go", Label: "Go"}, {Value: "python", Label: "Python"}}

func (snippet) Meta() models.Meta {
	return models.Meta{App: "snippets", Choices: map[string][]models.Choice{"language": languages},
		UniqueTogether: [][]string{{"title", "code"}}}
}

// extras is drf_fields.py's Extras serializer.
type extras struct {
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

var colors = []models.Choice{{Value: "red", Label: "Red"}, {Value: "green", Label: "Green"}}

func extrasSerializer(t *testing.T) *serializers.Serializer[extras] {
	t.Helper()
	s, err := serializers.New[extras](
		serializers.Choices("color", colors), serializers.Choices("colors", colors),
		serializers.Regex("code", `^[A-Z]{3}$`),
		serializers.Computed("shout", func(*extras, *serializers.Context) (any, error) { return "hi", nil }),
		serializers.HiddenField("Owner", func(*serializers.Context) (int64, error) { return 1, nil }),
	)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// keysInOrder lists an object's keys in order.
func keysInOrder(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytesReader(b))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && dec.More() {
				keys = append(keys, tok)
				var skip json.RawMessage
				_ = dec.Decode(&skip)
			}
		}
	}
}

// The OPTIONS metadata of a model serializer and of a serializer of
// every other field type are DRF's for the same declarations: a choice
// field with its choices, an email, a URL, a slug, a regex, an IP address
// ("string"), a list and a dictionary ("nested object") with their child,
// a method field (read-only "field"); the hidden field is not listed.
func TestFieldInfoAsDRF(t *testing.T) {
	drf := loadDRF(t)
	for name, c := range map[string]struct {
		got, want json.RawMessage
	}{
		"model":  {serializers.MustNew[snippet]().FieldInfo(), drf.ModelInfo},
		"extras": {extrasSerializer(t).FieldInfo(), drf.ExtrasInfo},
	} {
		if !sameJSON(t, c.got, c.want) {
			t.Errorf("%s: FieldInfo\n got %s\nwant %s", name, c.got, c.want)
		}
		if got, want := keysInOrder(t, c.got), keysInOrder(t, c.want); !slices.Equal(got, want) {
			t.Errorf("%s: fields %v, want %v", name, got, want)
		}
	}
}

// exists answers the unique checks as drf_fields.py's database does: it
// holds one snippet, title "taken", code "x", slug "taken".
func exists() *serializers.Context {
	return &serializers.Context{
		Exists: func(column, value string) (bool, error) { return column == "slug" && value == "taken", nil },
		ExistsTogether: func(columns, values []string) (bool, error) {
			return slices.Equal(columns, []string{"title", "code"}) && slices.Equal(values, []string{"taken", "x"}), nil
		},
	}
}

// errorJSON is the body of a validation error.
func errorJSON(t *testing.T, err error) []byte {
	t.Helper()
	var api *exceptions.APIException
	if !errors.As(err, &api) || api.Status != 400 {
		t.Fatalf("error %v is no 400", err)
	}
	b, jerr := json.Marshal(api.Detail)
	if jerr != nil {
		t.Fatal(jerr)
	}
	return b
}

// Invalid input is refused in DRF's words, field by field, for the model
// serializer (required fields, choices, email, URL, slug, IP address,
// null, blank, unique, unique together) and the other field types (a
// list's and a dictionary's items by index and key).
func TestValidationErrorsAsDRF(t *testing.T) {
	drf := loadDRF(t)
	model := serializers.MustNew[snippet]()
	for name, res := range drf.ModelErrors {
		if name == "good" || name == "partial" {
			continue // below, and TestModelDefaults
		}
		var data map[string]any
		mustDecode(t, name, drf, "model_errors", &data)
		err := model.ValidateNew(data, new(snippet), exists())
		if err == nil {
			t.Errorf("model %s: valid, DRF says %s", name, res.Errors)
			continue
		}
		if got := errorJSON(t, err); !sameJSON(t, got, res.Errors) {
			t.Errorf("model %s:\n got %s\nwant %s", name, got, res.Errors)
		}
	}
	ex := extrasSerializer(t)
	for name, res := range drf.ExtrasErrors {
		if res.Errors == nil {
			continue
		}
		var data map[string]any
		mustDecode(t, name, drf, "extras_errors", &data)
		err := ex.ValidateNew(data, new(extras), nil)
		if err == nil {
			t.Errorf("extras %s: valid, DRF says %s", name, res.Errors)
			continue
		}
		if got := errorJSON(t, err); !sameJSON(t, got, res.Errors) {
			t.Errorf("extras %s:\n got %s\nwant %s", name, got, res.Errors)
		}
	}
}

// inputs are the inputs drf_fields.py validates, by case.
var inputs = map[string]map[string]string{
	"model_errors": {
		"empty": `{}`,
		"bad": `{"code": "c", "language": "cobol", "email": "nope", "homepage": "nope",
			"slug": "a b", "ip": "1.2.3", "rank": -1, "title": "` + string(slices.Repeat([]byte("t"), 101)) + `"}`,
		"null":     `{"code": null, "language": null, "email": null, "slug": null, "ip": null, "title": null}`,
		"blank":    `{"code": "", "language": "", "email": "", "homepage": "", "slug": "", "ip": ""}`,
		"unique":   `{"code": "x", "slug": "taken", "title": "taken"}`,
		"together": `{"code": "x", "slug": "fresh", "title": "taken"}`,
		"good":     `{"code": "c", "slug": "s-1", "email": "A@Example.COM", "homepage": "http://x.org", "ip": "::ffff:1.2.3.4"}`,
	},
	"extras_errors": {
		"empty": `{}`,
		"bad": `{"color": "blue", "colors": "red", "email": "a@", "url": "ftp:/x", "code": "abc",
			"slug": "é", "ip": "x", "tags": [1, "x", 3, "y"], "scores": {"a": 1, "b": "z"}, "words": ["abcd", "ab"]}`,
		"types":   `{"color": 1, "colors": ["red", "blue"], "email": 3, "tags": "1", "scores": [1]}`,
		"nulls":   `{"color": null, "colors": null, "email": null, "tags": null, "scores": null}`,
		"blank":   `{"color": "", "colors": [], "email": ""}`,
		"good":    `{"color": "red", "colors": ["red", "red", "green"], "email": "a@b.co", "tags": ["1", 2], "scores": {"a": "3"}, "code": "ABC"}`,
		"partial": `{"tags": [1]}`,
	},
}

func mustDecode(t *testing.T, name string, _ drfAnswers, group string, data *map[string]any) {
	t.Helper()
	in, ok := inputs[group][name]
	if !ok {
		t.Fatalf("no input for %s %s", group, name)
	}
	dec := json.NewDecoder(bytesReader([]byte(in)))
	dec.UseNumber()
	if err := dec.Decode(data); err != nil {
		t.Fatal(err)
	}
}

// Valid input gives DRF's validated data: an IPv4-mapped address
// unpacked, a multiple choice without its repeats, a list's and a
// dictionary's items converted; the hidden field set from its default.
func TestValidDataAsDRF(t *testing.T) {
	drf := loadDRF(t)
	var data map[string]any
	mustDecode(t, "good", drf, "model_errors", &data)
	var s snippet
	if err := serializers.MustNew[snippet]().ValidateNew(data, &s, exists()); err != nil {
		t.Fatal(err)
	}
	if diff := validatedDiff(t, s, nil, drf.ModelErrors["good"].Valid); diff != "" {
		t.Errorf("model data: %s", diff)
	}
	data = nil
	mustDecode(t, "good", drf, "extras_errors", &data)
	var e extras
	if err := extrasSerializer(t).ValidateNew(data, &e, nil); err != nil {
		t.Fatal(err)
	}
	// DRF's MultipleChoiceField gives a set, whose order is none; owner is
	// a hidden field, which JSON does not show.
	slices.Sort(e.Colors)
	if diff := validatedDiff(t, e, map[string]any{"owner": e.Owner}, drf.ExtrasErrors["good"].Valid); diff != "" {
		t.Errorf("extras data: %s", diff)
	}
}

// validatedDiff compares DRF's validated data (JSON, a set sorted) with
// the fields of item that DRF validated, by their JSON names (extra
// holds those JSON leaves out): "" when each is the same.
func validatedDiff(t *testing.T, item any, extra map[string]any, drf json.RawMessage) string {
	t.Helper()
	var want map[string]json.RawMessage
	if err := json.Unmarshal(drf, &want); err != nil || len(want) == 0 {
		t.Fatalf("DRF's validated data %s: %v", drf, err)
	}
	b, err := json.Marshal(item)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		got[k], _ = json.Marshal(v)
	}
	var diffs []string
	for k, w := range want {
		if !sameJSON(t, got[k], w) {
			diffs = append(diffs, fmt.Sprintf("%s: %s, DRF's %s", k, got[k], w))
		}
	}
	slices.Sort(diffs)
	return strings.Join(diffs, "; ")
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// texts holds one field of each validated text kind.
type texts struct {
	Email string `json:"email" drf:"email"`
	URL   string `json:"url" drf:"url"`
	IP    string `json:"ip" drf:"ip"`
}

// Emails, URLs and IP addresses are valid or not as DRF's EmailField,
// URLField and IPAddressField (Django 3.2's validators) say, and an IP
// address is cleaned as theirs (an IPv4-mapped address unpacked, IPv6 in
// lower case, the zone dropped).
func TestTextValidatorsAsDjango(t *testing.T) {
	type answer struct {
		Valid  *string  `json:"valid"`
		Errors []string `json:"errors"`
	}
	var all struct {
		Emails map[string]answer `json:"emails"`
		URLs   map[string]answer `json:"urls"`
		IPs    map[string]answer `json:"ips"`
	}
	drfsuite.RunDRF(t, framework.DRF314, "testdata/drf_fields.py", nil, &all)
	drf := map[string]map[string]answer{}
	drf["emails"], drf["urls"], drf["ips"] = all.Emails, all.URLs, all.IPs
	ser := serializers.MustNew[texts]()
	for group, name := range map[string]string{"emails": "email", "urls": "url", "ips": "ip"} {
		if len(drf[group]) == 0 {
			t.Fatalf("no %s in testdata", group)
		}
		for in, want := range drf[group] {
			var got texts
			err := ser.Validate(map[string]any{name: in}, &got, true, nil)
			value := map[string]string{"email": got.Email, "url": got.URL, "ip": got.IP}[name]
			switch {
			case want.Valid != nil && err != nil:
				t.Errorf("%s %q: %v, DRF takes it as %q", name, in, err, *want.Valid)
			case want.Valid != nil && value != *want.Valid:
				t.Errorf("%s %q: %q, DRF's %q", name, in, value, *want.Valid)
			case want.Valid == nil && err == nil:
				t.Errorf("%s %q: valid (%q), DRF says %v", name, in, value, want.Errors)
			case want.Valid == nil:
				if body := errorJSON(t, err); !sameJSON(t, body, []byte(`{"`+name+`":["`+want.Errors[0]+`"]}`)) {
					t.Errorf("%s %q: %s, DRF says %v", name, in, body, want.Errors)
				}
			}
		}
	}
}
