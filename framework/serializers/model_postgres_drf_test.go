package serializers_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// TestPosgresFieldsMapping's models (drftests_model_serializer_test.go):
// django.contrib.postgres' HStoreField and ArrayField. DRF's
// CharField() without max_length is a Go []string's TextField, which
// OPTIONS shows as it shows a CharField; msArrayInput's base fields have
// a max_length, as drf_model_serializer_suite.py validates (Django 3.2's
// CharField() cannot validate).
type (
	msHStore struct {
		ID          int64              `db:"id" json:"-"`
		HstoreField map[string]*string `db:"hstore_field" json:"hstore_field"`
	}
	msArray struct {
		ID                  int64    `db:"id" json:"-"`
		ArrayField          []string `db:"array_field" json:"array_field"`
		ArrayFieldWithBlank []string `db:"array_field_with_blank" json:"array_field_with_blank" model:"blank"`
	}
	msArrayInput struct {
		ID                  int64    `db:"id" json:"-"`
		ArrayField          []string `db:"array_field" json:"array_field" model:"max_length=5"`
		ArrayFieldWithBlank []string `db:"array_field_with_blank" json:"array_field_with_blank" model:"max_length=5,blank"`
	}
)

func (msHStore) Meta() models.Meta     { return models.Meta{App: "tests", Name: "HStoreFieldModel"} }
func (msArray) Meta() models.Meta      { return models.Meta{App: "tests", Name: "ArrayFieldModel"} }
func (msArrayInput) Meta() models.Meta { return models.Meta{App: "tests", Name: "ArrayInputModel"} }

// msHStoreInputs and msArrayInputs are the data
// drf_model_serializer_suite.py validates.
var (
	msHStoreInputs = []string{`{"hstore_field": {"a": "1", "b": null, "c": ""}}`, `{"hstore_field": {"a": 1}}`,
		`{"hstore_field": "a=>1"}`, `{"hstore_field": {"a": ["b"]}}`, `{"hstore_field": {}}`, `{}`}
	msArrayInputs = []string{`{"array_field": ["a", "b"], "array_field_with_blank": []}`, `{"array_field": ["a"]}`,
		`{"array_field": [], "array_field_with_blank": []}`, `{"array_field": "a"}`, `{"array_field": [null]}`,
		`{"array_field": [""]}`, `{"array_field": [1, true]}`, `{"array_field": ["abcdef"]}`,
		`{"array_field_with_blank": ["a"]}`, `{}`}
)

// msPostgresOutcomes is the OPTIONS description of T's serializer and
// the outcome of validating each of inputs with In's.
func msPostgresOutcomes[T, In any](t *testing.T, level framework.Compatibility, inputs []string) map[string]any {
	t.Helper()
	s := serializers.MustNew[In]()
	outcomes := []any{}
	for _, body := range inputs {
		outcomes = append(outcomes, []any{json.RawMessage(body), msOutcome(t, s, body, level, nil)})
	}
	return map[string]any{"info": msInfo[T](t, level), "inputs": outcomes}
}

// asArraySize is drf_array_size.py's ArraySizeModel: ArrayFields of a
// size (Django's size=N), of base fields of a max_length.
type asArraySize struct {
	ID   int64    `db:"id" json:"-"`
	Tags []string `db:"tags" json:"tags" model:"max_length=5,size=2"`
	One  []string `db:"one" json:"one" model:"max_length=3,size=1,blank"`
	Free []string `db:"free" json:"free" model:"blank"`
	// Capped has extra_kwargs' max_length=2, min_length=1 of the list.
	Capped []string `db:"capped" json:"capped" model:"max_length=5,size=3,blank" drf:"max_length=2,min_length=1"`
}

func (asArraySize) Meta() models.Meta { return models.Meta{App: "tests", Name: "ArraySizeModel"} }

// drfArraySize is what drf_array_size.py printed at one level.
type drfArraySize struct {
	Versions map[string]string `json:"versions"`
	Info     json.RawMessage   `json:"info"`
	Schema   struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	} `json:"schema"`
	Inputs [][2]json.RawMessage `json:"inputs"`
}

// TestArraySizeAsDRF: an ArrayField of size=N refuses a list of more
// than N items with Django's ArrayMaxLengthValidator message once its
// items are valid ("List contains 3 items, it should contain no more
// than 2.", "item" by the size at the DRF 3.14 level, by the count at
// 3.18's), its schema has maxItems, and OPTIONS shows no max_length; a
// ListField's own max_length and min_length come after (their messages
// last, their maxItems and minItems in the schema), as
// drf_array_size.py's DRF answers at each level.
func TestArraySizeAsDRF(t *testing.T) {
	s := serializers.MustNew[asArraySize]()
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfArraySize
			drfsuite.RunDRF(t, compatibility, "testdata/drf_array_size.py", nil, &drf)
			if got := s.FieldInfoAt(compatibility); !sameJSON(t, got, drf.Info) {
				t.Errorf("OPTIONS (DRF %s):\n got %s\nwant %s", drf.Versions["rest_framework"], got, drf.Info)
			}
			var required []string
			for _, f := range s.Description().Fields {
				got, err := json.Marshal(schemas.FieldSchema(f))
				if err != nil {
					t.Fatal(err)
				}
				if want := drf.Schema.Properties[f.Name]; !sameJSON(t, got, want) {
					t.Errorf("schema of %s (DRF %s):\n got %s\nwant %s", f.Name, drf.Versions["rest_framework"], got, want)
				}
				if f.Required {
					required = append(required, f.Name)
				}
			}
			if !slices.Equal(required, drf.Schema.Required) {
				t.Errorf("required %v, want %v", required, drf.Schema.Required)
			}
			if len(drf.Inputs) == 0 {
				t.Fatal("no inputs")
			}
			for _, in := range drf.Inputs {
				got, err := json.Marshal(msOutcome(t, s, string(in[0]), compatibility, nil))
				if err != nil {
					t.Fatal(err)
				}
				if !sameJSON(t, got, in[1]) {
					t.Errorf("%s (DRF %s):\n got %s\nwant %s", in[0], drf.Versions["rest_framework"], got, in[1])
				}
			}
		})
	}
}
