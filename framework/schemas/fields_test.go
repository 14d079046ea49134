package schemas_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// extras holds the field types of framework/serializers'
// testdata/drf_fields.py's Extras serializer that OpenAPI maps.
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
}

// The schema of each field type is DRF 3.14's map_field for the same
// field (AutoSchema.map_serializer, which drf_fields.py prints): a choice
// is an enum of strings, a multiple choice an array of them, an email and
// a URL strings of their formats, a list an array of its child's type
// (without the child's bounds), a dictionary an object. DRF's regex
// patterns of the URL, slug and regex fields are not written.
func TestFieldSchemasAsDRF(t *testing.T) {
	var drf struct {
		Extras struct {
			Properties map[string]map[string]any `json:"properties"`
		} `json:"extras_openapi"`
	}
	drfsuite.RunDRF(t, framework.DRF314, "../serializers/testdata/drf_fields.py", nil, &drf)
	colors := []models.Choice{{Value: "red", Label: "Red"}, {Value: "green", Label: "Green"}}
	ser := serializers.MustNew[extras](serializers.Choices("color", colors), serializers.Choices("colors", colors),
		serializers.Regex("code", `^[A-Z]{3}$`))
	for _, f := range ser.Description().Fields {
		want, ok := drf.Extras.Properties[f.Name]
		if !ok {
			t.Fatalf("DRF has no %s", f.Name)
		}
		delete(want, "pattern")
		js, err := json.Marshal(schemas.FieldSchema(f))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(js, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s, DRF's %v", f.Name, js, want)
		}
	}
}
