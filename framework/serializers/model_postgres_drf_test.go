package serializers_test

import (
	"encoding/json"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
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
