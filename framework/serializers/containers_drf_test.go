package serializers_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// The fields of testdata/drf_containers.py, each the field "f".
type (
	listOfLists struct {
		F [][]int64 `json:"f"`
	}
	dictOfDicts struct {
		F map[string]map[string]string `json:"f"`
	}
	listOfDicts struct {
		F []map[string]int64 `json:"f"`
	}
	dictOfLists struct {
		F map[string][]int64 `json:"f"`
	}
	nullCharDict struct {
		F map[string]*string `json:"f"`
	}
	nullIntList struct {
		F []*int64 `json:"f"`
	}
	anyList struct {
		F []any `json:"f"`
	}
	anyDict struct {
		F map[string]any `json:"f"`
	}
	childOptions struct {
		F [][]int64 `json:"f" drf:"min_length=1,child.allow_empty=false,child.max_length=2,child.child.max_value=10"`
	}
	nullChildList struct {
		F [][]int64 `json:"f" drf:"child.allow_null"`
	}
	notEmptyDicts struct {
		F []map[string]any `json:"f" drf:"child.allow_empty=false"`
	}
)

// TestContainersAsDRF: a list or dictionary whose child is a list or a
// dictionary (DRF's ListField(child=ListField(...)), of any depth the
// Go type has), a nullable field (a pointer element) or no field (an
// element of type any) answers as DRF 3.14 and 3.18 answer
// drf_containers.py, in JSON and in HTML forms: the values validated,
// and the errors of each level by index or key.
func TestContainersAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			validators := map[string]edgeValidator{
				"list_of_lists":   edgeCase[listOfLists](t),
				"dict_of_dicts":   edgeCase[dictOfDicts](t),
				"list_of_dicts":   edgeCase[listOfDicts](t),
				"dict_of_lists":   edgeCase[dictOfLists](t),
				"null_char_dict":  edgeCase[nullCharDict](t),
				"null_int_list":   edgeCase[nullIntList](t),
				"any_list":        edgeCase[anyList](t),
				"any_dict":        edgeCase[anyDict](t),
				"child_options":   edgeCase[childOptions](t),
				"null_child_list": edgeCase[nullChildList](t),
				"not_empty_dicts": edgeCase[notEmptyDicts](t),
			}
			drf := drfScriptAnswers(t, "drf_containers.py", compatibility)
			if len(drf) == 0 {
				t.Fatal("drf_containers.py printed no items")
			}
			for key, want := range drf {
				name, rest, _ := strings.Cut(key, " ")
				mode, input, _ := strings.Cut(rest, " ")
				validate, ok := validators[name]
				if !ok {
					t.Fatalf("no Go field for %s", name)
				}
				body := `{"f": ` + input + `}`
				if mode == "form" {
					body = input
				}
				data, c := edgeInput(t, mode, body, compatibility)
				got, err := validate(data, c)
				if err != nil {
					t.Fatalf("%s: %v", key, err)
				}
				if !sameJSON(t, []byte(got), want) {
					t.Errorf("%s:\n got %s\nwant %s", key, got, want)
				}
			}
		})
	}
}

// TestListOfFieldAsDRF: List is DRF's ListSerializer whose child is a
// field, as the top-level serializer: it validates and renders as DRF
// 3.14 and 3.18 answer drf_containers.py's "lists", JSON and HTML forms
// ("[0]", "[0][0]"), its errors a ListSerializer's (a list refused as a
// whole is a non-field error; the items' errors are a list of every
// item's at 3.14, an object by index at 3.18), unlike a ListField's.
func TestListOfFieldAsDRF(t *testing.T) {
	integers, err := serializers.NewList[int64]("max_value=10")
	if err != nil {
		t.Fatal(err)
	}
	integerLists, err := serializers.NewList[[]int64]("")
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]func(data any, c *serializers.Context) (json.RawMessage, error){
		"integers": func(data any, c *serializers.Context) (json.RawMessage, error) {
			items, err := integers.Validate(data, serializers.ListOptions[int64]{}, c)
			if err != nil {
				return nil, err
			}
			return integers.Data(items)
		},
		"integer_lists": func(data any, c *serializers.Context) (json.RawMessage, error) {
			items, err := integerLists.Validate(data, serializers.ListOptions[[]int64]{}, c)
			if err != nil {
				return nil, err
			}
			return integerLists.Data(items)
		},
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf struct {
				Lists map[string]json.RawMessage `json:"lists"`
			}
			drfsuite.RunDRF(t, compatibility, filepath.Join("testdata", "drf_containers.py"), nil, &drf)
			if len(drf.Lists) == 0 {
				t.Fatal("drf_containers.py printed no lists")
			}
			for key, want := range drf.Lists {
				name, rest, _ := strings.Cut(key, " ")
				mode, input, _ := strings.Cut(rest, " ")
				data, c := edgeInput(t, mode, input, compatibility)
				out, err := lists[name](data, c)
				got := `{"value":` + string(out) + `}`
				if err != nil {
					got = `{"errors":` + string(errorJSON(t, err)) + `}`
				}
				if !sameJSON(t, []byte(got), want) {
					t.Errorf("%s:\n got %s\nwant %s", key, got, want)
				}
			}
		})
	}
}

// TestContainerSetupErrors: a child option that cannot apply fails at
// setup, naming the serializer and the field.
func TestContainerSetupErrors(t *testing.T) {
	type nullNotPointer struct {
		F []int64 `json:"f" drf:"child.allow_null"`
	}
	type tooDeep struct {
		F []int64 `json:"f" drf:"child.child.max_value=1"`
	}
	for name, err := range map[string]error{
		"child.allow_null": func() error { _, err := serializers.New[nullNotPointer](); return err }(),
		"child.child":      func() error { _, err := serializers.New[tooDeep](); return err }(),
		"NewList child":    func() error { _, err := serializers.NewList[int64]("allow_null"); return err }(),
		"NewList type":     func() error { _, err := serializers.NewList[struct{ A int }](""); return err }(),
	} {
		if err == nil {
			t.Errorf("%s: no setup error", name)
			continue
		}
		t.Logf("%s: %v", name, err)
		if name[0] != 'N' && !strings.Contains(err.Error(), "nullNotPointer.F") && !strings.Contains(err.Error(), "tooDeep.F") {
			t.Errorf("%s: %v names no field", name, err)
		}
	}
}
