package serializers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// starItem is testdata/drf_star.py's item, flat: x beside the fields of
// NestedSerializer1 (a, b) and NestedSerializer2 (c, d).
type starItem struct {
	X *int64 `json:"x"`
	A *int64 `json:"a" drf:"required"`
	B *int64 `json:"b"`
	C *int64 `json:"c" drf:"required"`
	D *int64 `json:"d" drf:"required"`
}

// starGroups are drf_star.py's NestedBaseSerializer: nested1 and nested2
// of source='*', nested2 optional.
var starGroups = []serializers.Option{
	serializers.Group{Name: "nested1", Fields: []string{"a", "b"}},
	serializers.Group{Name: "nested2", Fields: []string{"c", "d"}, Optional: true},
}

// drfStar is what drf_star.py printed at one level.
type drfStar struct {
	Versions map[string]string   `json:"versions"`
	Output   json.RawMessage     `json:"output"`
	Actions  json.RawMessage     `json:"actions"`
	Inputs   [][]json.RawMessage `json:"inputs"`
}

// TestGroupAsDRF: a Group is DRF's nested serializer of source='*', as
// DRF 3.14 and 3.18 answer DRF's tests/test_serializer.py's
// TestStarredSource and the inputs of drf_star.py: a flat item is written
// nested (test_nested_serialize), a nested input is validated into the
// flat item (test_nested_validate), null is refused
// (test_nested_null_validate), anything but an object is the nested
// serializer's non-field error, the fields' errors are nested under the
// group, an optional group may be left out, a partial write requires
// nothing, a form's keys are "nested1.a"; and OPTIONS lists the group as
// a nested object with its children.
func TestGroupAsDRF(t *testing.T) {
	s, err := serializers.New[starItem](starGroups...)
	if err != nil {
		t.Fatal(err)
	}
	flat := serializers.MustNew[starItem]()
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfStar
			drfsuite.RunDRF(t, compatibility, "testdata/drf_star.py", nil, &drf)
			if len(drf.Inputs) == 0 {
				t.Fatal("no answers")
			}
			one := func(v int64) *int64 { return &v }
			out, err := s.Data(&starItem{X: one(5), A: one(1), B: one(2), C: one(3), D: one(4)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := canonicalJSON(t, out), canonicalJSON(t, drf.Output); got != want {
				t.Errorf("output %s, want %s", got, want)
			}
			if got, want := canonicalJSON(t, s.FieldInfo()), canonicalJSON(t, drf.Actions); got != want {
				t.Errorf("FieldInfo: %s, want %s", got, want)
			}
			for _, in := range drf.Inputs {
				var mode, body string
				var partial bool
				var want struct {
					Validated map[string]json.RawMessage `json:"validated"`
					Errors    json.RawMessage            `json:"errors"`
				}
				if err := json.Unmarshal(in[0], &mode); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(in[1], &partial); err != nil {
					t.Fatal(err)
				}
				if mode == "form" {
					if err := json.Unmarshal(in[2], &body); err != nil {
						t.Fatal(err)
					}
				} else {
					body = canonicalJSON(t, in[2])
				}
				if err := json.Unmarshal(in[3], &want); err != nil {
					t.Fatal(err)
				}
				data, c := edgeInput(t, mode, body, compatibility)
				var obj starItem
				var got, w string
				if err := s.Validate(data, &obj, partial, c); err != nil {
					got = "errors " + canonicalJSON(t, json.RawMessage(strings.TrimPrefix(errorBody(err), "400 ")))
				} else {
					out, err := flat.Data(&obj, nil)
					if err != nil {
						t.Fatal(err)
					}
					got = "validated " + canonicalJSON(t, out)
				}
				if want.Validated != nil {
					// The item holds what DRF validated, null elsewhere.
					all := map[string]json.RawMessage{}
					for _, k := range flat.FieldNames() {
						all[k] = json.RawMessage("null")
						if v, ok := want.Validated[k]; ok {
							all[k] = v
						}
					}
					js, _ := json.Marshal(all)
					w = "validated " + canonicalJSON(t, js)
				} else {
					w = "errors " + canonicalJSON(t, want.Errors)
				}
				if got != w {
					t.Errorf("%s %s partial=%v (DRF %s): %s, want %s", mode, body, partial, drf.Versions["rest_framework"], got, w)
				}
			}
		})
	}
}

// TestGroupSetup: a Group's misconfigurations are setup errors naming the
// group and the field; Fields names the group (a declared field, which
// DRF's Meta.fields must include), and Exclude cannot leave it out.
func TestGroupSetup(t *testing.T) {
	for _, tc := range []struct {
		opts []serializers.Option
		want string
	}{
		{[]serializers.Option{serializers.Group{Name: "n", Fields: []string{"zz"}}}, `Group "n": no field "zz"`},
		{[]serializers.Option{serializers.Group{Name: "x", Fields: []string{"a"}}}, `field "x" is defined twice`},
		{[]serializers.Option{serializers.Group{Name: "n"}}, "a Group needs a name and fields"},
		{[]serializers.Option{serializers.Group{Name: "n", Fields: []string{"a"}}, serializers.Group{Name: "m", Fields: []string{"a"}}},
			`Group "m": no field "a" (or it is in another group)`},
		{append([]serializers.Option{serializers.Fields("x", "a", "nested1", "nested2")}, starGroups...), `has no field "a"`},
		{append([]serializers.Option{serializers.Fields("x", "nested2")}, starGroups...),
			"The field 'nested1' was declared on serializer Serializer[serializers_test.starItem], but has not been included in the 'fields' option."},
		{append([]serializers.Option{serializers.Exclude("nested1")}, starGroups...), "Cannot both declare the field 'nested1'"},
	} {
		_, err := serializers.New[starItem](tc.opts...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %s", tc.opts, err, tc.want)
		}
	}
	s, err := serializers.New[starItem](append([]serializers.Option{serializers.Fields("nested2", "x", "nested1")}, starGroups...)...)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.FieldNames(), ","); got != "nested2,x,nested1" {
		t.Errorf("fields %s", got)
	}
}
