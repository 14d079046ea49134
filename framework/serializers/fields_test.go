package serializers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

// bag holds a multiple choice, a list, a dictionary, an integer choice
// and a list that may be null.
type bag struct {
	Colors []string           `json:"colors"`
	Tags   []int              `json:"tags"`
	Scores map[string]float64 `json:"scores" drf:"allow_empty=false"`
	Level  int                `json:"level"`
	Maybe  []string           `json:"maybe" drf:"allow_null,allow_empty=false"`
}

func bags(t *testing.T) *serializers.Serializer[bag] {
	t.Helper()
	s, err := serializers.New[bag](serializers.Choices("colors", colors),
		serializers.Choices("level", []models.Choice{{Value: "1", Label: "Low"}, {Value: "2", Label: "High"}}))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validateInto validates data into a copy of start and answers "ok" and
// its representation, or the error's status and body.
func validateInto(t *testing.T, s *serializers.Serializer[bag], data any, start bag, partial bool, c *serializers.Context) string {
	t.Helper()
	b := start
	err := s.Validate(data, &b, partial, c)
	if err != nil {
		return errorBody(err)
	}
	out, err := s.Data(&b, c)
	if err != nil {
		t.Fatal(err)
	}
	return "ok " + string(out)
}

// JSON input of the container and choice fields, as DRF reads it: an
// integer choice matched by str() of the input (2 and "2", not 2.0); a
// multiple choice's repeats dropped, a dictionary's keys iterated (as
// Python iterates a dict); allow_empty=false in each field's words;
// allow_null on a list; a partial update leaves absent fields alone.
func TestContainersAndChoices(t *testing.T) {
	s := bags(t)
	start := bag{Colors: []string{"green"}, Tags: []int{9}, Scores: map[string]float64{"z": 1}, Level: 1, Maybe: []string{"m"}}
	for _, c := range []struct {
		in      string
		partial bool
		want    string
	}{
		{`{"level": 2}`, true, `ok {"colors":["green"],"tags":[9],"scores":{"z":1.0},"level":2,"maybe":["m"]}`},
		{`{"level": "2", "colors": {"red": 1, "green": 2}, "maybe": null}`, true, `ok {"colors":["green","red"],"tags":[9],"scores":{"z":1.0},"level":2,"maybe":null}`},
		{`{"level": 2.0}`, true, `400 {"level":["\"2.0\" is not a valid choice."]}`},
		{`{"level": true}`, true, `400 {"level":["\"True\" is not a valid choice."]}`},
		{`{"level": [1]}`, true, `400 {"level":["\"[1]\" is not a valid choice."]}`},
		{`{"scores": {}, "maybe": [], "tags": []}`, true, `400 {"scores":["This dictionary may not be empty."],"maybe":["This list may not be empty."]}`},
		{`{"tags": [1, null], "scores": {"a": "x", "b": 2}}`, true, `400 {"tags":{"1":["This field may not be null."]},"scores":{"a":["A valid number is required."]}}`},
		{`{"colors": []}`, false, `ok {"colors":[],"tags":[9],"scores":{"z":1.0},"level":1,"maybe":["m"]}`},
	} {
		var data any
		dec := json.NewDecoder(strings.NewReader(c.in))
		dec.UseNumber()
		if err := dec.Decode(&data); err != nil {
			t.Fatal(err)
		}
		if got := validateInto(t, s, data, start, c.partial, nil); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// Form input of the container fields, as DRF's get_value reads HTML
// input: a list from its indexed keys (in index order) or its own name,
// a dictionary from "name.key" keys; a multiple choice absent from a full
// form is an empty list, absent from a partial one left alone.
func TestContainersFormInput(t *testing.T) {
	s := bags(t)
	start := bag{Colors: []string{"green"}, Level: 1}
	for _, c := range []struct {
		form    string
		partial bool
		want    string
	}{
		{"tags[1]=2&tags[0]=1&scores.a=1.5&colors=red&level=2", false, `ok {"colors":["red"],"tags":[1,2],"scores":{"a":1.5},"level":2,"maybe":null}`},
		{"tags=7", false, `ok {"colors":[],"tags":[7],"scores":{},"level":1,"maybe":null}`},
		// A name sent again: all its values for a list (QueryDict.getlist,
		// as a multiple select sends them), the last for a scalar.
		{"colors=red&colors=green&tags=1&tags=2&level=1&level=2", false, `ok {"colors":["red","green"],"tags":[1,2],"scores":{},"level":2,"maybe":null}`},
		{"level=2", true, `ok {"colors":["green"],"tags":[],"scores":{},"level":2,"maybe":null}`},
		{"tags[0]=x&colors=blue", false, `400 {"colors":["\"blue\" is not a valid choice."],"tags":{"0":["A valid integer is required."]}}`},
	} {
		hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.form))
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r := request.New(hr, request.Config{Parsers: []request.Parser{framework.FormParser{}}})
		data, err := r.Data()
		if err != nil {
			t.Fatal(err)
		}
		if got := validateInto(t, s, data, start, c.partial, &serializers.Context{Request: r}); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.form, got, c.want)
		}
	}
}

// Options that cannot work are refused at setup, naming the field.
func TestFieldOptionsCheckedAtSetup(t *testing.T) {
	type plain struct {
		Name  string    `json:"name"`
		Count int       `json:"count"`
		Tags  []int     `json:"tags"`
		Hold  [][]int   `json:"-"`
		Pair  []float32 `json:"-"`
		Owner int64     `json:"-"`
	}
	type badEmail struct {
		N int `json:"n" drf:"email"`
	}
	type badChild struct {
		N int `json:"n" drf:"child.max_length=3"`
	}
	intDefault := func(*serializers.Context) (int, error) { return 1, nil }
	for name, opts := range map[string][]serializers.Option{
		"choices of no field":     {serializers.Choices("nope", colors)},
		"choice not a value":      {serializers.Choices("count", colors)},
		"choices on a []int":      {serializers.Choices("tags", colors)},
		"regex on a number":       {serializers.Regex("count", "x")},
		"bad regex":               {serializers.Regex("name", "(")},
		"hidden of no field":      {serializers.HiddenField("nope", intDefault)},
		"hidden of another type":  {serializers.HiddenField("Owner", intDefault)},
		"validator of no field":   {serializers.ValidateField("nope", func(v string, _ *serializers.Context) (string, error) { return v, nil })},
		"validator of wrong type": {serializers.ValidateField("name", func(v int, _ *serializers.Context) (int, error) { return v, nil })},
	} {
		if _, err := serializers.New[plain](opts...); err == nil {
			t.Errorf("%s: no setup error", name)
		}
	}
	if _, err := serializers.New[badEmail](); err == nil || !strings.Contains(err.Error(), "badEmail.N") {
		t.Errorf("email on an int: %v", err)
	}
	if _, err := serializers.New[badChild](); err == nil {
		t.Error("child option on a scalar: no setup error")
	}
}

// overridden is a model whose drf tags override what its declaration
// gives: a field with a default made required, a TextField bounded, a
// choice field made read-only (so OPTIONS lists no choices).
type overridden struct {
	ID       int64  `db:"id" json:"id"`
	Title    string `db:"title" json:"title" model:"max_length=10,default=x" drf:"required"`
	Body     string `db:"body" json:"body" drf:"max_length=5"`
	Language string `db:"language" json:"language" model:"max_length=10,default=go" drf:"read_only"`
}

func (overridden) Meta() models.Meta {
	return models.Meta{Choices: map[string][]models.Choice{"language": languages}}
}

// A drf tag's options apply over what the model declaration derives.
func TestDRFTagsOverrideTheModel(t *testing.T) {
	s := serializers.MustNew[overridden]()
	want := `{"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},` +
		`"title":{"type":"string","required":true,"read_only":false,"label":"Title","max_length":10},` +
		`"body":{"type":"string","required":true,"read_only":false,"label":"Body","max_length":5},` +
		`"language":{"type":"choice","required":false,"read_only":true,"label":"Language"}}`
	if got := string(s.FieldInfo()); got != want {
		t.Errorf("FieldInfo\n got %s\nwant %s", got, want)
	}
	var o overridden
	if err := s.ValidateNew(map[string]any{"title": "t", "body": "b", "language": "python"}, &o, nil); err != nil {
		t.Fatal(err)
	}
	if o.Language != "go" || o.Title != "t" {
		t.Errorf("a read-only choice keeps the model's default: %+v", o)
	}
	err := s.ValidateNew(map[string]any{"body": "too long"}, &o, nil)
	if got := errorBody(err); got != `400 {"title":["This field is required."],"body":["Ensure this field has no more than 5 characters."]}` {
		t.Errorf("required over a default, max_length on a TextField: %s", got)
	}
}
