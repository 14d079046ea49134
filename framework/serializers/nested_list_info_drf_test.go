package serializers_test

import (
	"encoding/json"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

type (
	// nlItem is drf_nested_list_info.py's ItemSerializer.
	nlItem struct {
		Name string `json:"name" drf:"required,max_length=10"`
		Qty  int64  `json:"qty"`
	}
	// nlOrder is its OrderSerializer, each many=True field a NestedList.
	nlOrder struct {
		Title string   `json:"title" drf:"required"`
		Items []nlItem `json:"items" drf:"required"`
		Extra []nlItem `json:"extra" drf:"label=Optional"`
		Shown []nlItem `json:"shown" drf:"read_only"`
		Given []nlItem `json:"given" drf:"required,write_only"`
	}
)

// TestNestedListInfoAsDRF: OPTIONS describes a NestedList as DRF's
// SimpleMetadata describes a nested serializer of many=True, at DRF 3.14
// and 3.18: a "field" with the list's bounds and a "child", the nested
// object of the item serializer's "children" with the list's required,
// read_only and label.
func TestNestedListInfoAsDRF(t *testing.T) {
	item := serializers.MustNew[nlItem]()
	s := serializers.MustNew[nlOrder](
		serializers.NestedList("items", item, serializers.ListOptions[nlItem]{}),
		serializers.NestedList("extra", item, serializers.ListOptions[nlItem]{}),
		serializers.NestedList("shown", item, serializers.ListOptions[nlItem]{}),
		serializers.NestedList("given", item, serializers.ListOptions[nlItem]{NotEmpty: true, MinLength: 1, MaxLength: 3}),
	)
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf map[string]json.RawMessage
			drfsuite.RunDRF(t, compatibility, "testdata/drf_nested_list_info.py", nil, &drf)
			var got map[string]json.RawMessage
			if err := json.Unmarshal(s.FieldInfoAt(compatibility), &got); err != nil {
				t.Fatal(err)
			}
			if len(drf) != 5 || len(got) != len(drf) {
				t.Fatalf("fields: %d, DRF %d", len(got), len(drf))
			}
			for name, want := range drf {
				if !sameJSON(t, got[name], want) {
					t.Errorf("%s:\n got %s\nwant %s", name, got[name], want)
				}
			}
		})
	}
}
