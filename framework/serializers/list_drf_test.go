package serializers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// listItem is testdata/drf_list.py's ItemSerializer.
type listItem struct {
	A int64   `json:"a" drf:"required"`
	B *string `json:"b"`
}

// TestValidateListAsDRF: ValidateList is DRF's ListSerializer validating
// many=True input, as DRF 3.14 and 3.18 answer drf_list.py (DRF's
// tests/test_serializer_lists.py): a list of valid items is read in
// order; no data, anything but a list, an empty list with NotEmpty, and
// one longer than MaxLength or shorter than MinLength (DRF 3.14 has them
// too) are non-field errors; the items' errors are a list of every
// item's at the 3.14 level, an object of the invalid ones' by index at
// 3.18, and a null item is "This field may not be null.".
func TestValidateListAsDRF(t *testing.T) {
	s, err := serializers.New[listItem]()
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]serializers.ListOptions[listItem]{
		"plain":     {},
		"not_empty": {NotEmpty: true},
		"lengths":   {MaxLength: 2, MinLength: 1},
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf struct {
				Versions map[string]string               `json:"versions"`
				Lists    map[string][][2]json.RawMessage `json:"lists"`
			}
			drfsuite.RunDRF(t, compatibility, "testdata/drf_list.py", nil, &drf)
			if len(drf.Lists) != len(lists) {
				t.Fatalf("%d lists, want %d", len(drf.Lists), len(lists))
			}
			for name, answers := range drf.Lists {
				for _, in := range answers {
					var want struct {
						Validated []map[string]json.RawMessage `json:"validated"`
						Errors    json.RawMessage              `json:"errors"`
					}
					if err := json.Unmarshal(in[1], &want); err != nil {
						t.Fatal(err)
					}
					body := canonicalJSON(t, in[0])
					data, c := edgeInput(t, "json", body, compatibility)
					items, err := s.ValidateList(data, lists[name], c)
					var got, w string
					if err != nil {
						got = "errors " + canonicalJSON(t, json.RawMessage(strings.TrimPrefix(errorBody(err), "400 ")))
					} else {
						ptrs := make([]*listItem, len(items))
						for i := range items {
							ptrs[i] = &items[i]
						}
						out, err := s.Many(ptrs, c)
						if err != nil {
							t.Fatal(err)
						}
						got = "validated " + canonicalJSON(t, out)
					}
					if want.Errors != nil {
						w = "errors " + canonicalJSON(t, want.Errors)
					} else {
						// A field DRF's item leaves out is null in the struct.
						for _, item := range want.Validated {
							if _, ok := item["b"]; !ok {
								item["b"] = json.RawMessage("null")
							}
						}
						js, _ := json.Marshal(want.Validated)
						w = "validated " + canonicalJSON(t, js)
					}
					if got != w {
						t.Errorf("%s %s (DRF %s): %s, want %s", name, body, drf.Versions["rest_framework"], got, w)
					}
				}
			}
		})
	}
}
