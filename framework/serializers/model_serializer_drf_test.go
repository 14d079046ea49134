package serializers_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// choiceModel is testdata/drf_model_serializer.py's ChoiceModel: a
// decimal with choices, and a non-editable field with choices.
type choiceModel struct {
	ID    int64           `db:"id" json:"id"`
	Price decimal.Decimal `db:"price" json:"price" model:"max_digits=3,decimal_places=1"`
	Color string          `db:"color" json:"color" model:"max_length=5,editable=false,default=red"`
}

func (choiceModel) Meta() models.Meta {
	return models.Meta{App: "tests", Choices: map[string][]models.Choice{
		"price": {{Value: "0.1", Label: "low"}, {Value: "0.5", Label: "medium"}, {Value: "0.9", Label: "high"}},
		"color": {{Value: "red", Label: "Red"}, {Value: "blue", Label: "Blue"}, {Value: "green", Label: "Green"}},
	}}
}

// drfModelSerializer is what drf_model_serializer.py printed at one level.
type drfModelSerializer struct {
	Versions     map[string]string   `json:"versions"`
	MissingField string              `json:"missing_field"`
	Actions      json.RawMessage     `json:"actions"`
	Inputs       [][]json.RawMessage `json:"inputs"`
}

// TestModelSerializerAsDRF: the model serializer mappings of DRF's
// tests/test_model_serializer.py, as DRF 3.14 and 3.18 answer them
// (drf_model_serializer.py): a Computed field left out of Fields is a
// setup error in DRF's words; a DecimalField with choices is a
// ChoiceField, which takes str(input) of a choice and writes the
// choice as DRF's JSONEncoder writes a Decimal (a float), in the output
// and OPTIONS; a non-editable field with choices is a read-only
// ChoiceField (DRF 3.18; FieldInfo is DRF 3.18's, see
// docs/drf-differences.md).
func TestModelSerializerAsDRF(t *testing.T) {
	s, err := serializers.New[choiceModel]()
	if err != nil {
		t.Fatal(err)
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfModelSerializer
			drfsuite.RunDRF(t, compatibility, "testdata/drf_model_serializer.py", nil, &drf)
			if len(drf.Inputs) == 0 || drf.MissingField == "" {
				t.Fatal("no answers")
			}
			_, err = serializers.New[choiceModel](serializers.Computed("missing", func(*choiceModel, *serializers.Context) (any, error) {
				return nil, nil
			}), serializers.Fields("id"))
			want := "serializers: " + strings.Replace(drf.MissingField, "TestSerializer", "Serializer[serializers_test.choiceModel]", 1)
			if err == nil || err.Error() != want {
				t.Errorf("a Computed field left out of Fields: %v, want %s", err, want)
			}
			if level == "drf318" {
				if got, want := canonicalJSON(t, s.FieldInfo()), canonicalJSON(t, drf.Actions); got != want {
					t.Errorf("FieldInfo: %s, want %s", got, want)
				}
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
				obj := choiceModel{ID: 1}
				var got string
				if err := s.ValidateNew(data, &obj, c); err != nil {
					got = "errors " + canonicalJSON(t, json.RawMessage(strings.TrimPrefix(errorBody(err), "400 ")))
				} else {
					out, err := s.Data(&obj, c)
					if err != nil {
						t.Fatal(err)
					}
					got = "validated " + canonicalJSON(t, out)
				}
				var w string
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

// canonicalJSON is js with its objects' keys sorted.
func canonicalJSON(t *testing.T, js json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
