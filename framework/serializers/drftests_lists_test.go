package serializers_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_serializer_lists.py, ported onto ValidateList,
// ValidateListUpdate, ListOptions and the list fields. Each ported item
// runs DRF's serializers and data as the test writes them in
// testdata/drf_serializer_lists.py, with real DRF at both levels, and
// compares what the Go counterpart answers with what DRF answers: valid or
// not, what was validated (saved, rendered) and the errors, the values
// DRF's test asserts on.

// The Go types of the test's serializers.
type (
	// drfNestedItem is TestListSerializerContainingNestedSerializer's TestSerializer.
	drfNestedItem struct {
		Integer int64 `json:"integer" drf:"required"`
		Boolean bool  `json:"boolean" drf:"required"`
	}
	// drfUpdateItem is its TestUpdateSerializer over BasicObject(pk=,
	// integer=, private_field=): pk and private_field are no fields.
	drfUpdateItem struct {
		PK           int64  `json:"-"`
		Integer      int64  `json:"integer" drf:"required"`
		Boolean      bool   `json:"boolean" drf:"required"`
		PrivateField string `json:"-"`
	}
	// drfLists is TestNestedListSerializer's TestSerializer: a
	// ListSerializer of a field is a ListField.
	drfLists struct {
		Integers []int64 `json:"integers" drf:"required"`
		Booleans []bool  `json:"booleans" drf:"required"`
	}
	// drfColors is the CommunitySerializer of TestListFieldHTMLInput and
	// TestSerializerPartialUsage.
	drfColors struct {
		Colors []string `json:"colors" drf:"allow_null,child.max_length=7"`
	}
	drfRequiredColors struct {
		Colors []string `json:"colors" drf:"required,child.max_length=7"`
	}
	drfNamedColors struct {
		Name   string   `json:"name" drf:"required,max_length=100"`
		Colors []string `json:"colors" drf:"allow_null,child.max_length=7"`
	}
	drfListData struct {
		Listdata []string `json:"listdata" drf:"required"`
	}
	drfMultipleChoice struct {
		Multiplechoice []string `json:"multiplechoice" drf:"required"`
	}
	// drfUpdateFields is TestSerializerPartialUsage's ListSerializer child.
	drfUpdateFields struct {
		UpdateField int64 `json:"update_field" drf:"required"`
		StoreField  int64 `json:"store_field" drf:"required"`
	}
	// drfListsOfLists is TestNestedListOfListsSerializer's
	// TestSerializer: a ListSerializer of a ListSerializer of a field is
	// a ListField of a ListField.
	drfListsOfLists struct {
		Integers [][]int64 `json:"integers" drf:"required"`
		Booleans [][]bool  `json:"booleans" drf:"required"`
	}
	// drfIDs is TestNestedListSerializerAllowEmpty's ParentSerializer:
	// ids = ChildSerializer(many=True) is a NestedList.
	drfIDs struct {
		IDs []drfID `json:"ids" drf:"required"`
	}
	drfID struct {
		ID int64 `json:"id" drf:"required"`
	}
	// drfWithList is TestSerializerPartialUsage's Serializer of a
	// list_field = ListSerializer(many=True).
	drfWithList struct {
		ExtraField int64             `json:"extra_field" drf:"required"`
		ListField  []drfUpdateFields `json:"list_field" drf:"required"`
	}
	// drfWrapper is TestListSerializerDictErrorBehavior's
	// WrapperSerializer: a NestedList and a ListField of DictFields.
	drfWrapper struct {
		ListSerializer []drfBoolean     `json:"list_serializer" drf:"required"`
		ListField      []map[string]any `json:"list_field" drf:"required,child.allow_empty=false"`
	}
	drfSomeInt struct {
		SomeInt int64 `json:"some_int" drf:"required"`
	}
	drfBoolean struct {
		Num bool `json:"num" drf:"required"`
	}
)

// drfListsMethods are the test methods of test_serializer_lists.py.
var drfListsMethods = strings.Fields(`
TestListSerializer.test_validate TestListSerializer.test_validate_html_input
TestListSerializer.test_list_serializer_is_subscriptable
TestListSerializerContainingNestedSerializer.test_validate TestListSerializerContainingNestedSerializer.test_create
TestListSerializerContainingNestedSerializer.test_serialize TestListSerializerContainingNestedSerializer.test_validate_html_input
TestListSerializerContainingNestedSerializer.test_update_allow_custom_child_validation
TestNestedListSerializer.test_validate TestNestedListSerializer.test_create TestNestedListSerializer.test_serialize
TestNestedListSerializer.test_validate_html_input
TestListFieldHTMLInput.test_listfield_with_indexed_keys TestListFieldHTMLInput.test_listfield_standard_form_submission
TestNestedListSerializerAllowEmpty.test_allow_empty_true TestNestedListSerializerAllowEmpty.test_allow_empty_false
TestNestedListOfListsSerializer.test_validate TestNestedListOfListsSerializer.test_validate_html_input
TestListSerializerClass.test_list_serializer_class_validate
TestSerializerPartialUsage.test_partial_listfield TestSerializerPartialUsage.test_partial_multiplechoice
TestSerializerPartialUsage.test_partial_listfield_with_non_indexed_list
TestSerializerPartialUsage.test_listfield_mixed_plain_and_indexed_keys
TestSerializerPartialUsage.test_partial_listfield_no_data_returns_empty
TestSerializerPartialUsage.test_allow_empty_true TestSerializerPartialUsage.test_update_allow_empty_true
TestSerializerPartialUsage.test_allow_empty_false TestSerializerPartialUsage.test_update_allow_empty_false
TestSerializerPartialUsage.test_as_field_allow_empty_true TestSerializerPartialUsage.test_update_as_field_allow_empty_true
TestSerializerPartialUsage.test_as_field_allow_empty_false TestSerializerPartialUsage.test_update_as_field_allow_empty_false
TestEmptyListSerializer.test_nested_serializer_with_list_json
TestEmptyListSerializer.test_nested_serializer_with_list_multipart
TestMaxMinLengthListSerializer.test_min_max_length_two_items TestMaxMinLengthListSerializer.test_min_max_length_four_items
TestMaxMinLengthListSerializer.test_min_max_length_six_items
TestToRepresentationManagerCheck.test
TestListSerializerDictErrorBehavior.test_listserializer_dict_error_format
TestListSerializerDictErrorBehavior.test_listserializer_and_listfield_consistency`)

// drfListsNotPortable are the methods the public API cannot express.
var drfListsNotPortable = map[string]string{
	"TestListSerializer.test_list_serializer_is_subscriptable": "Python's typing (ListSerializer[...]); Go's generics are ListOptions[T]",
	"TestToRepresentationManagerCheck.test":                    "Django's custom managers and depth=3 of a one-to-one's reverse",
}

// TestDRFSerializerLists checks that every method is ported or listed as
// not portable, then runs the ported ones at both levels: each answers
// as DRF does.
func TestDRFSerializerLists(t *testing.T) {
	ported := map[string]bool{}
	for _, it := range drfListsItems {
		ported[it.name] = true
	}
	if len(ported) != len(drfListsItems) {
		t.Error("a method is ported twice")
	}
	for _, m := range drfListsMethods {
		if _, np := drfListsNotPortable[m]; ported[m] == np {
			t.Errorf("%s is ported %v and listed as not portable %v", m, ported[m], np)
		}
	}
	if n := len(drfListsItems) + len(drfListsNotPortable); n != len(drfListsMethods) {
		t.Errorf("%d methods accounted for, of %d", n, len(drfListsMethods))
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			drf := drfScriptAnswers(t, "drf_serializer_lists.py", compatibility)
			for _, it := range drfListsItems {
				t.Run(it.name, func(t *testing.T) {
					want, ok := drf[it.name]
					if !ok {
						t.Fatalf("drf_serializer_lists.py has no answer for %s", it.name)
					}
					got := canonicalJSON(t, rawJSON(t, it.answer(t, compatibility)))
					if w := canonicalJSON(t, want); got != w {
						t.Errorf("%s\nDRF %s", got, w)
					}
				})
			}
			t.Logf("tests/test_serializer_lists.py at %s: %d of %d methods ported, all passing; %d not portable",
				level, len(drfListsItems), len(drfListsMethods), len(drfListsNotPortable))
		})
	}
}

// drfListsMethod is a ported method: answer is the Go counterpart's
// observation, compared with drf_serializer_lists.py's.
type drfListsMethod struct {
	name   string
	answer func(t *testing.T, level framework.Compatibility) any
}

func drfListsItem(name string, answer func(t *testing.T, level framework.Compatibility) any) drfListsMethod {
	return drfListsMethod{name, answer}
}

// drfListsItems are the ported items.
var drfListsItems = []drfListsMethod{
	// A ListSerializer whose child is a field is a List of its type.
	drfListsItem("TestListSerializer.test_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfScalarListOutcome(t, "json", `["123", "456"]`, level)
	}),
	drfListsItem("TestListSerializer.test_validate_html_input", func(t *testing.T, level framework.Compatibility) any {
		return drfScalarListOutcome(t, "form", `[0]=123&[1]=456`, level)
	}),
	drfListsItem("TestListSerializerContainingNestedSerializer.test_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listValidate[drfNestedItem](t, "json", `[{"integer":"123","boolean":"true"},{"integer":"456","boolean":"false"}]`,
			serializers.ListOptions[drfNestedItem]{}, level))
	}),
	// ListSerializer.create calls the child's create for each item (here
	// BasicObject(**validated_data)): the items ValidateList returns are
	// those objects. generics' BulkCreate saves them in a database.
	drfListsItem("TestListSerializerContainingNestedSerializer.test_create", func(t *testing.T, level framework.Compatibility) any {
		r := listValidate[drfNestedItem](t, "json", `[{"integer":"123","boolean":"true"},{"integer":"456","boolean":"false"}]`,
			serializers.ListOptions[drfNestedItem]{}, level)
		return map[string]any{"valid": r.err == nil, "saved": renderedWith(t, r.s, r.items)}
	}),
	drfListsItem("TestListSerializerContainingNestedSerializer.test_serialize", func(t *testing.T, level framework.Compatibility) any {
		return map[string]any{"data": renderedWith(t, serializers.MustNew[drfNestedItem](), []drfNestedItem{{Integer: 123, Boolean: true}, {Integer: 456}})}
	}),
	drfListsItem("TestListSerializerContainingNestedSerializer.test_validate_html_input", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listValidate[drfNestedItem](t, "form", "[0]integer=123&[0]boolean=true&[1]integer=456&[1]boolean=false",
			serializers.ListOptions[drfNestedItem]{}, level))
	}),
	// The multiple update: ValidateListUpdate's stored finds each item's
	// instance by the input's pk, as the test's run_child_validation
	// does; the saves are update()'s (the caller's).
	drfListsItem("TestListSerializerContainingNestedSerializer.test_update_allow_custom_child_validation", func(t *testing.T, level framework.Compatibility) any {
		s := serializers.MustNew[drfUpdateItem]()
		instance := []drfUpdateItem{{PK: 1, Integer: 11, PrivateField: "a"}, {PK: 2, Integer: 22, PrivateField: "b"}}
		data, c := edgeInput(t, "json", `[{"pk":1,"integer":"123","boolean":"true"},{"pk":2,"integer":"456","boolean":"false"}]`, level)
		items, err := s.ValidateListUpdate(data, serializers.ListOptions[drfUpdateItem]{}, false, func(item map[string]any) (*drfUpdateItem, error) {
			for i := range instance {
				if fmt.Sprint(instance[i].PK) == fmt.Sprint(item["pk"]) {
					return &instance[i], nil
				}
			}
			return nil, fmt.Errorf("no instance of pk %v", item["pk"])
		}, c)
		saved := []map[string]any{}
		for _, it := range items {
			saved = append(saved, map[string]any{"pk": it.PK, "integer": it.Integer, "boolean": it.Boolean, "private_field": it.PrivateField})
		}
		return map[string]any{"valid": err == nil, "saved": saved}
	}),
	drfListsItem("TestNestedListSerializer.test_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "json", `{"integers":["123","456"],"booleans":["true","false"]}`, false, drfLists{}, level))
	}),
	drfListsItem("TestNestedListSerializer.test_create", func(t *testing.T, level framework.Compatibility) any {
		r := objectValidate(t, "json", `{"integers":["123","456"],"booleans":["true","false"]}`, false, drfLists{}, level)
		return map[string]any{"valid": r.err == nil, "saved": renderedWith(t, r.s, r.obj)}
	}),
	drfListsItem("TestNestedListSerializer.test_serialize", func(t *testing.T, level framework.Compatibility) any {
		return map[string]any{"data": renderedWith(t, serializers.MustNew[drfLists](), drfLists{Integers: []int64{123, 456}, Booleans: []bool{true, false}})}
	}),
	drfListsItem("TestNestedListSerializer.test_validate_html_input", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "integers[0]=123&integers[1]=456&booleans[0]=true&booleans[1]=false", false, drfLists{}, level))
	}),
	drfListsItem("TestNestedListOfListsSerializer.test_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "json", `{"integers": [["123", "456"], ["789", "0"]], "booleans": [["true", "true"], ["false", "true"]]}`,
			false, drfListsOfLists{}, level))
	}),
	drfListsItem("TestNestedListOfListsSerializer.test_validate_html_input", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "integers[0][0]=123&integers[0][1]=456&integers[1][0]=789&integers[1][1]=000&"+
			"booleans[0][0]=true&booleans[0][1]=true&booleans[1][0]=false&booleans[1][1]=true", false, drfListsOfLists{}, level))
	}),
	drfListsItem("TestListFieldHTMLInput.test_listfield_with_indexed_keys", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "colors[0]=%23ffffff&colors[1]=%23000000", false, drfColors{}, level))
	}),
	drfListsItem("TestListFieldHTMLInput.test_listfield_standard_form_submission", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "colors=%23ffffff&colors=%23000000&colors=%23ff0000", false, drfRequiredColors{}, level))
	}),
	drfListsItem("TestListSerializerClass.test_list_serializer_class_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listValidate[drfNestedItem](t, "json", `[]`, serializers.ListOptions[drfNestedItem]{
			Validate: func([]drfNestedItem, *serializers.Context) error { return serializers.Invalid("Non field error") },
		}, level))
	}),
	drfListsItem("TestSerializerPartialUsage.test_partial_listfield", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "", true, drfListData{}, level))
	}),
	drfListsItem("TestSerializerPartialUsage.test_partial_multiplechoice", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "", true, drfMultipleChoice{}, level, serializers.Choices("multiplechoice", choices("1", "2", "3"))))
	}),
	drfListsItem("TestSerializerPartialUsage.test_partial_listfield_with_non_indexed_list", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "colors=%23ffffff&colors=%23000000", true, drfColors{}, level))
	}),
	drfListsItem("TestSerializerPartialUsage.test_listfield_mixed_plain_and_indexed_keys", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "colors=%23aaaaaa&colors=%23bbbbbb&colors[0]=%23ffffff&colors[1]=%23000000", true, drfColors{}, level))
	}),
	drfListsItem("TestSerializerPartialUsage.test_partial_listfield_no_data_returns_empty", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "form", "name=Community+Name", true, drfNamedColors{}, level))
	}),
	// many=True with an instance: DRF's children validate each item
	// without it (partial), as ValidateListUpdate with no stored does.
	drfListsItem("TestSerializerPartialUsage.test_allow_empty_true", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listUpdate(t, `[]`, serializers.ListOptions[drfUpdateFields]{}, level))
	}),
	drfListsItem("TestSerializerPartialUsage.test_update_allow_empty_true", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listUpdate(t, `[{"update_field":31},{"update_field":41}]`, serializers.ListOptions[drfUpdateFields]{}, level))
	}),
	drfListsItem("TestSerializerPartialUsage.test_allow_empty_false", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listUpdate(t, `[]`, serializers.ListOptions[drfUpdateFields]{NotEmpty: true}, level))
	}),
	drfListsItem("TestSerializerPartialUsage.test_update_allow_empty_false", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listUpdate(t, `[{"update_field":31},{"update_field":41}]`, serializers.ListOptions[drfUpdateFields]{NotEmpty: true}, level))
	}),
	// The test's child is an IntegerField; an empty list is the same
	// whatever the child (a Serializer[T] here).
	drfListsItem("TestEmptyListSerializer.test_nested_serializer_with_list_json", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listValidate[drfSomeInt](t, "json", `[]`, serializers.ListOptions[drfSomeInt]{}, level))
	}),
	drfListsItem("TestEmptyListSerializer.test_nested_serializer_with_list_multipart", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listValidate[drfSomeInt](t, "form", ``, serializers.ListOptions[drfSomeInt]{}, level))
	}),
	drfListsItem("TestMaxMinLengthListSerializer.test_min_max_length_two_items", drfLengths(2)),
	drfListsItem("TestMaxMinLengthListSerializer.test_min_max_length_four_items", drfLengths(4)),
	drfListsItem("TestMaxMinLengthListSerializer.test_min_max_length_six_items", drfLengths(6)),
	drfListsItem("TestNestedListSerializerAllowEmpty.test_allow_empty_true", drfIDsAllowEmpty(true)),
	drfListsItem("TestNestedListSerializerAllowEmpty.test_allow_empty_false", drfIDsAllowEmpty(false)),
	drfListsItem("TestSerializerPartialUsage.test_as_field_allow_empty_true", drfAsField(true, false)),
	drfListsItem("TestSerializerPartialUsage.test_update_as_field_allow_empty_true", drfAsField(true, true)),
	drfListsItem("TestSerializerPartialUsage.test_as_field_allow_empty_false", drfAsField(false, false)),
	drfListsItem("TestSerializerPartialUsage.test_update_as_field_allow_empty_false", drfAsField(false, true)),
	drfListsItem("TestListSerializerDictErrorBehavior.test_listserializer_and_listfield_consistency", func(t *testing.T, level framework.Compatibility) any {
		return drfObjectOutcome(t, objectValidate(t, "json", `{"list_serializer": [{"num": "1"}, {"num": "wrong"}, {"num": "0"}, {"num": ""}], `+
			`"list_field": [{"ok": "x"}, {}, {"valid": "y"}, {}]}`, false, drfWrapper{}, level,
			serializers.NestedList("list_serializer", serializers.MustNew[drfBoolean](), serializers.ListOptions[drfBoolean]{})))
	}),
	drfListsItem("TestListSerializerDictErrorBehavior.test_listserializer_dict_error_format", func(t *testing.T, level framework.Compatibility) any {
		return drfListOutcome(t, listValidate[drfBoolean](t, "json", `[{"num":"1"},{"num":"x"},{"num":"0"},{"num":"hello"}]`,
			serializers.ListOptions[drfBoolean]{}, level))
	}),
}

// drfLengths is TestMaxMinLengthListSerializer's method of n items: its
// many_int = IntegerSerializer(many=True, ...) field is the list itself,
// its errors and validated list under the field's name.
func drfLengths(n int) func(t *testing.T, level framework.Compatibility) any {
	return func(t *testing.T, level framework.Compatibility) any {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(`{"some_int":%d}`, i)
		}
		body := "[" + strings.Join(items, ",") + "]"
		out := map[string]any{}
		for name, opts := range map[string]serializers.ListOptions[drfSomeInt]{
			"max": {MaxLength: 5}, "min": {MinLength: 3}, "max_min": {MinLength: 3, MaxLength: 5},
		} {
			r := listValidate[drfSomeInt](t, "json", body, opts, level)
			o := map[string]any{"valid": r.err == nil, "errors": map[string]any{}}
			if r.err != nil {
				o["errors"] = map[string]any{"many_int": json.RawMessage(errorJSON(t, r.err))}
			} else {
				o["validated"] = map[string]any{"many_int": renderedWith(t, r.s, r.items)}
			}
			out[name] = o
		}
		return out
	}
}

// drfScalarListOutcome is TestListSerializer's IntegerListSerializer
// (a ListSerializer whose child is an IntegerField) validating body: a
// List of int64.
func drfScalarListOutcome(t *testing.T, mode, body string, level framework.Compatibility) map[string]any {
	t.Helper()
	l, err := serializers.NewList[int64]("")
	if err != nil {
		t.Fatal(err)
	}
	data, c := edgeInput(t, mode, body, level)
	items, err := l.Validate(data, serializers.ListOptions[int64]{}, c)
	if err != nil {
		return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err))}
	}
	out, err := l.Data(items)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"valid": true, "errors": []any{}, "validated": out}
}

// drfIDsAllowEmpty is TestNestedListSerializerAllowEmpty's method of
// allow_empty, parametrized by partial.
func drfIDsAllowEmpty(allowEmpty bool) func(t *testing.T, level framework.Compatibility) any {
	return func(t *testing.T, level framework.Compatibility) any {
		out := map[string]any{}
		for _, partial := range []bool{false, true} {
			ids := serializers.MustNew[drfID]()
			r := objectValidate(t, "json", `{"ids": []}`, partial, drfIDs{}, level,
				serializers.NestedList("ids", ids, serializers.ListOptions[drfID]{NotEmpty: !allowEmpty}))
			o := drfObjectOutcome(t, r)
			if r.err == nil {
				// validated_data holds the list given (a partial one
				// too), where the item holds no list when none was.
				validated := map[string]any{}
				if r.obj.IDs != nil {
					validated["ids"] = renderedWith(t, ids, r.obj.IDs)
				}
				o["validated"] = validated
			}
			out[fmt.Sprintf("partial=%s", map[bool]string{false: "False", true: "True"}[partial])] = o
		}
		return out
	}
}

// drfAsField is TestSerializerPartialUsage's method of a list_field
// ListSerializer(many=True, allow_empty=...) in a partial update: the
// update of no data, or (update) of extra_field alone and of list_field
// alone, each item partial.
func drfAsField(allowEmpty, update bool) func(t *testing.T, level framework.Compatibility) any {
	return func(t *testing.T, level framework.Compatibility) any {
		items := serializers.MustNew[drfUpdateFields]()
		partialUpdate := func(body string) map[string]any {
			r := objectValidate(t, "json", body, true, drfWithList{}, level,
				serializers.NestedList("list_field", items, serializers.ListOptions[drfUpdateFields]{NotEmpty: !allowEmpty}))
			if r.err != nil {
				return drfObjectOutcome(t, r)
			}
			validated := map[string]any{}
			if r.obj.ExtraField != 0 {
				validated["extra_field"] = r.obj.ExtraField
			}
			if r.obj.ListField != nil {
				each := []any{}
				for _, it := range r.obj.ListField {
					each = append(each, validatedData(t, items, it, true))
				}
				validated["list_field"] = each
			}
			return map[string]any{"valid": true, "errors": map[string]any{}, "validated": validated}
		}
		if !update {
			return partialUpdate(`{}`)
		}
		return map[string]any{"data_1": partialUpdate(`{"extra_field": 2}`),
			"data_2": partialUpdate(`{"list_field": [{"update_field": 31}, {"update_field": 41}]}`)}
	}
}

// listResult is what a serializer's list validation gave.
type listResult[T any] struct {
	items   []T
	s       *serializers.Serializer[T]
	partial bool
	err     error
}

// objectResult is what a serializer's validation of an item gave.
type objectResult[T any] struct {
	obj     T
	s       *serializers.Serializer[T]
	partial bool
	err     error
}

// listValidate validates body (JSON, or an HTML form) with ValidateList.
func listValidate[T any](t *testing.T, mode, body string, opts serializers.ListOptions[T], level framework.Compatibility) listResult[T] {
	t.Helper()
	s := serializers.MustNew[T]()
	data, c := edgeInput(t, mode, body, level)
	items, err := s.ValidateList(data, opts, c)
	return listResult[T]{items: items, s: s, err: err}
}

// listUpdate validates body, partial, with ValidateListUpdate and no
// stored items, as TestSerializerPartialUsage's instance= list.
func listUpdate(t *testing.T, body string, opts serializers.ListOptions[drfUpdateFields], level framework.Compatibility) listResult[drfUpdateFields] {
	t.Helper()
	s := serializers.MustNew[drfUpdateFields]()
	data, c := edgeInput(t, "json", body, level)
	items, err := s.ValidateListUpdate(data, opts, true, nil, c)
	return listResult[drfUpdateFields]{items: items, s: s, partial: true, err: err}
}

// objectValidate validates body into a zero T, partial or not.
func objectValidate[T any](t *testing.T, mode, body string, partial bool, zero T, level framework.Compatibility, opts ...serializers.Option) objectResult[T] {
	t.Helper()
	s := serializers.MustNew[T](opts...)
	data, c := edgeInput(t, mode, body, level)
	obj := zero
	err := s.Validate(data, &obj, partial, c)
	return objectResult[T]{obj: obj, s: s, partial: partial, err: err}
}

// drfListOutcome is DRF's observation of a ListSerializer: valid, its
// errors ([] when valid) and what it validated.
func drfListOutcome[T any](t *testing.T, r listResult[T]) map[string]any {
	t.Helper()
	items, s, err := r.items, r.s, r.err
	if err != nil {
		return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err))}
	}
	validated := []any{}
	for _, it := range items {
		validated = append(validated, validatedData(t, s, it, r.partial))
	}
	return map[string]any{"valid": true, "errors": []any{}, "validated": validated}
}

// drfObjectOutcome is DRF's observation of a serializer: valid, its
// errors ({} when valid) and what it validated.
func drfObjectOutcome[T any](t *testing.T, r objectResult[T]) map[string]any {
	t.Helper()
	obj, s, err := r.obj, r.s, r.err
	if err != nil {
		return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err))}
	}
	return map[string]any{"valid": true, "errors": map[string]any{}, "validated": validatedData(t, s, obj, r.partial)}
}

// validatedData is DRF's validated_data of obj: its representation, and
// of a partial validation without the fields a zero T renders alike (the
// fields the input left out).
func validatedData[T any](t *testing.T, s *serializers.Serializer[T], obj T, partial bool) map[string]any {
	t.Helper()
	var zero T
	got, _ := decode(t, string(renderedWith(t, s, obj))).(map[string]any)
	if !partial {
		return got
	}
	unset, _ := decode(t, string(renderedWith(t, s, zero))).(map[string]any)
	for k, v := range got {
		if canonicalJSON(t, rawJSON(t, v)) == canonicalJSON(t, rawJSON(t, unset[k])) {
			delete(got, k)
		}
	}
	return got
}

// renderedWith renders an item of s, or a slice of them, as s.Data and
// s.Many do.
func renderedWith[T any](t *testing.T, s *serializers.Serializer[T], v any) json.RawMessage {
	t.Helper()
	var out json.RawMessage
	var err error
	switch v := v.(type) {
	case T:
		out, err = s.Data(&v, nil)
	case []T:
		ptrs := make([]*T, len(v))
		for i := range v {
			ptrs[i] = &v[i]
		}
		out, err = s.Many(ptrs, nil)
	default:
		t.Fatalf("cannot render %T", v)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rawJSON is v as JSON.
func rawJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// drfScriptAnswers runs testdata/script at level's DRF (drfsuite.RunDRF)
// and returns the "items" it prints, by item.
func drfScriptAnswers(t *testing.T, script string, level framework.Compatibility) map[string]json.RawMessage {
	t.Helper()
	var parsed struct {
		Items map[string]json.RawMessage `json:"items"`
	}
	drfsuite.RunDRF(t, level, filepath.Join("testdata", script), nil, &parsed)
	return parsed.Items
}
