package serializers_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// excludeComment is testdata/drf_exclude.py's Comment (DRF's
// tests/test_generics.py's).
type excludeComment struct {
	ID      int64     `db:"id" json:"id"`
	Email   string    `db:"email" json:"email" model:"field=EmailField,max_length=254"`
	Content string    `db:"content" json:"content" model:"max_length=200"`
	Created time.Time `db:"created" json:"created" model:"auto_now_add"`
}

func (excludeComment) Meta() models.Meta { return models.Meta{App: "tests"} }

// drfExclude is what drf_exclude.py printed at one level.
type drfExclude struct {
	Versions         map[string]string   `json:"versions"`
	FieldsAndExclude string              `json:"fields_and_exclude"`
	Declared         string              `json:"declared"`
	Unknown          string              `json:"unknown"`
	Fields           []string            `json:"fields"`
	HyperlinkedAll   []string            `json:"hyperlinked_all"`
	HyperlinkedExcl  []string            `json:"hyperlinked_exclude"`
	HyperlinkedPK    string              `json:"hyperlinked_pk"`
	Inputs           [][]json.RawMessage `json:"inputs"`
}

// TestExcludeAsDRF: Exclude is DRF's Meta.exclude, as DRF 3.14 and 3.18
// answer DRF's tests/test_model_serializer.py's TestSerializerMetaClass
// and tests/test_generics.py's TestCreateModelWithAutoNowAddField
// (drf_exclude.py): Fields with Exclude, a declared field excluded and an
// unknown field excluded are setup errors in DRF's words (the advice of
// the second is Go's, not `content = None`); the other fields keep their
// order, and a create validates and renders without the excluded one.
func TestExcludeAsDRF(t *testing.T) {
	const name = "Serializer[serializers_test.excludeComment]"
	s, err := serializers.New[excludeComment](serializers.Exclude("created"))
	if err != nil {
		t.Fatal(err)
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfExclude
			drfsuite.RunDRF(t, compatibility, "testdata/drf_exclude.py", nil, &drf)
			if len(drf.Inputs) == 0 || drf.Declared == "" {
				t.Fatal("no answers")
			}
			inDRFWords := func(what string, err error, drfText string) {
				t.Helper()
				want := "serializers: " + strings.ReplaceAll(drfText, "ExampleSerializer", name)
				if err == nil || err.Error() != want {
					t.Errorf("%s: %v, want %s", what, err, want)
				}
			}
			_, err = serializers.New[excludeComment](serializers.Fields("content"), serializers.Exclude("created"))
			inDRFWords("Fields with Exclude", err, drf.FieldsAndExclude)
			_, err = serializers.New[excludeComment](serializers.Exclude("missing"))
			inDRFWords("an unknown field excluded", err, drf.Unknown)
			_, err = serializers.New[excludeComment](serializers.HiddenField("content", func(*serializers.Context) (string, error) {
				return "x", nil
			}), serializers.Exclude("content"))
			first, _, _ := strings.Cut(drf.Declared, " Remove the field")
			inDRFWords("a declared field excluded", err, first+" Remove the field or leave it out of 'exclude'.")
			_, err = serializers.New[excludeComment](serializers.Computed("summary", func(*excludeComment, *serializers.Context) (any, error) {
				return nil, nil
			}), serializers.Exclude("summary"))
			inDRFWords("a Computed field excluded", err, strings.ReplaceAll(first, "'content'", "'summary'")+
				" Remove the field or leave it out of 'exclude'.")

			if got, want := strings.Join(s.FieldNames(), ","), strings.Join(drf.Fields, ","); got != want {
				t.Errorf("fields %s, want %s", got, want)
			}
			for _, in := range drf.Inputs {
				var want struct {
					Validated json.RawMessage `json:"validated"`
					Errors    json.RawMessage `json:"errors"`
				}
				if err := json.Unmarshal(in[1], &want); err != nil {
					t.Fatal(err)
				}
				var body bytes.Buffer
				if err := json.Compact(&body, in[0]); err != nil {
					t.Fatal(err)
				}
				data, c := edgeInput(t, "json", body.String(), compatibility)
				obj := excludeComment{ID: 1}
				var got, w string
				if err := s.ValidateNew(data, &obj, c); err != nil {
					got = "errors " + canonicalJSON(t, json.RawMessage(strings.TrimPrefix(errorBody(err), "400 ")))
				} else {
					out, err := s.Data(&obj, c)
					if err != nil {
						t.Fatal(err)
					}
					got = "validated " + canonicalJSON(t, out)
					if !obj.Created.IsZero() {
						t.Errorf("%s: the excluded field was set: %v", &body, obj.Created)
					}
				}
				if want.Validated != nil {
					w = "validated " + canonicalJSON(t, want.Validated)
				} else {
					w = "errors " + canonicalJSON(t, want.Errors)
				}
				if got != w {
					t.Errorf("%s (DRF %s): %s, want %s", &body, drf.Versions["rest_framework"], got, w)
				}
			}
		})
	}
}

// TestHyperlinkedFieldsAsDRF: Hyperlinked without Fields has DRF's
// HyperlinkedModelSerializer's default fields, the "url" first and in
// place of the primary key (drf_exclude.py, DRF 3.14 and 3.18); the url
// is no declared field (DRF's url_field_name), so Exclude may leave it
// out, and excluding the primary key is DRF's setup error, since it is
// not among them.
func TestHyperlinkedFieldsAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfExclude
			drfsuite.RunDRF(t, compatibility, "testdata/drf_exclude.py", nil, &drf)
			if len(drf.HyperlinkedAll) == 0 || drf.HyperlinkedPK == "" {
				t.Fatal("no answers")
			}
			for _, c := range []struct {
				what string
				opts []serializers.Option
				want []string
			}{
				{"all", nil, drf.HyperlinkedAll},
				{"url and email excluded", []serializers.Option{serializers.Exclude("url", "email")}, drf.HyperlinkedExcl},
			} {
				s, err := serializers.New[excludeComment](append(c.opts, serializers.Hyperlinked())...)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := strings.Join(s.FieldNames(), ","), strings.Join(c.want, ","); got != want {
					t.Errorf("%s: fields %s, want %s", c.what, got, want)
				}
			}
			_, err := serializers.New[excludeComment](serializers.Hyperlinked(), serializers.Exclude("id"))
			want := "serializers: " + strings.ReplaceAll(drf.HyperlinkedPK, "ExampleSerializer", "Serializer[serializers_test.excludeComment]")
			if err == nil || err.Error() != want {
				t.Errorf("the primary key excluded: %v, want %s", err, want)
			}
		})
	}
}
