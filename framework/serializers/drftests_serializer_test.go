package serializers_test

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
)

// DRF 3.18's tests/test_serializer.py, ported onto the serializers. Each
// ported item writes DRF's serializers as Go types and options, gives
// them DRF's data, and answers what DRF's assertions look at (valid or
// not, the errors, what was validated, what is rendered), which is
// compared with what testdata/drf_serializer_suite.py answers with real
// DRF at both levels. What was validated is what the validation changed
// in the item it was given (DRF's validated_data: the fields it holds).
// Every item either passes, or is one of drfSerializerDiffer (a
// difference docs/drf-differences.md gives the reason for) or of
// drfSerializerNotPortable (with the reason); a listed item that passes
// fails the test, so the lists stay true.

// The Go types of the test's serializers.
type (
	// drfsExample is TestSerializer's ExampleSerializer.
	drfsExample struct {
		Char    string `json:"char" drf:"required"`
		Integer int64  `json:"integer" drf:"required"`
	}
	// drfsPoint is NestedPointSerializer's Point: a Go serializer's
	// validated value is its type, the to_internal_value of the test.
	drfsPoint struct {
		SRID int     `json:"-"`
		X    float64 `json:"longitude" drf:"required"`
		Y    float64 `json:"latitude" drf:"required"`
	}
	// drfsEmailItem is TestBaseSerializer's item: its email is the
	// address type's own representation (to_representation and
	// to_internal_value of the test's BaseSerializer).
	drfsEmailItem struct {
		ID    int64       `json:"id" drf:"required"`
		Email drfsAddress `json:"email" drf:"required"`
	}
	// drfsStarred is NestedBaseSerializer: nested1 and nested2 are
	// Groups, DRF's nested serializers of source='*'.
	drfsStarred struct {
		A int64 `json:"a" drf:"required"`
		B int64 `json:"b" drf:"required"`
		C int64 `json:"c" drf:"required"`
		D int64 `json:"d" drf:"required"`
	}
	// drfsNullableField is NullableFieldSerializer: its CustomField of
	// source='*' sets the item's foo.
	drfsNullableField struct {
		Foo *string `json:"field" drf:"required,allow_null"`
	}
	// drfsDefaultOutput is TestDefaultOutput's ExampleSerializer; a tag's
	// default is a constant, the callable's value.
	drfsDefaultOutput struct {
		HasDefault         string `json:"has_default" drf:"default=x"`
		HasDefaultCallable string `json:"has_default_callable" drf:"default=y"`
		NoDefault          string `json:"no_default" drf:"required"`
	}
	// drfsParent is test_nested_serializer_not_required_with_querydict's
	// ParentSerializer: nested is an optional Group of x.
	drfsParent struct {
		Name string `json:"name" drf:"required"`
		X    string `json:"x" drf:"required"`
	}
	// drfsAllowNull is test_default_for_allow_null's serializer.
	drfsAllowNull struct {
		Foo      *string `json:"foo" drf:"required"`
		Bar      *string `json:"bar" drf:"source=foo.bar,allow_null"`
		Optional *string `json:"optional" drf:"allow_null"`
	}
	// drfsDefaultInclusions is TestDefaultInclusions' ExampleSerializer.
	drfsDefaultInclusions struct {
		Char    string `json:"char" drf:"default=abc"`
		Integer int64  `json:"integer" drf:"required"`
	}
	drfsRegex struct {
		Name string `json:"name" drf:"required"`
	}
	// drfs4606 is Test4606Regression's ExampleSerializer.
	drfs4606 struct {
		Name    string `json:"name" drf:"required"`
		Choices string `json:"choices" drf:"required"`
	}
	// drfsManyToManySource is TestWarningManyToMany's serializer of
	// ManyToManySource, whose targets have default=None.
	drfsManyToManySource struct {
		ID      int64   `db:"id" json:"id"`
		Name    string  `db:"name" json:"name" model:"max_length=100"`
		Targets []int64 `json:"targets" drf:"default=None" model:"many_to_many=tests_manytomanytarget,related_name=sources"`
	}
)

func (drfsManyToManySource) Meta() models.Meta {
	return models.Meta{App: "tests", Name: "ManyToManySource"}
}

// drfsAddress is an e-mail address held as its name and its domain,
// written and read as "name@domain".
type drfsAddress struct{ Name, Domain string }

func (a drfsAddress) MarshalJSON() ([]byte, error) { return json.Marshal(a.Name + "@" + a.Domain) }

func (a *drfsAddress) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	name, domain, ok := strings.Cut(s, "@")
	if !ok {
		return fmt.Errorf("no @ in %q", s)
	}
	*a = drfsAddress{name, domain}
	return nil
}

func (a drfsAddress) Value() (driver.Value, error) { return a.Name + "@" + a.Domain, nil }

func (a *drfsAddress) Scan(src any) error {
	s, _ := src.(string)
	return a.UnmarshalJSON([]byte(fmt.Sprintf("%q", s)))
}

// drfsMethods are test_serializer.py's 58 test methods.
var drfsMethods = strings.Fields(`
TestFieldImports.test_fields TestFieldImports.test_relations
TestSerializer.test_valid_serializer TestSerializer.test_invalid_serializer TestSerializer.test_invalid_datatype
TestSerializer.test_partial_validation TestSerializer.test_empty_serializer
TestSerializer.test_missing_attribute_during_serialization TestSerializer.test_data_access_before_save_raises_error
TestSerializer.test_validate_none_data TestSerializer.test_serialize_chainmap TestSerializer.test_serialize_custom_mapping
TestSerializer.test_custom_to_internal_value TestSerializer.test_iterable_validators TestSerializer.test_serializer_is_subscriptable
TestValidateMethod.test_non_field_error_validate_method TestValidateMethod.test_field_error_validate_method
TestBaseSerializer.test_abstract_methods_raise_proper_errors
TestBaseSerializer.test_access_to_data_attribute_before_validation_raises_error
TestBaseSerializer.test_access_to_errors_attribute_before_validation_raises_error
TestBaseSerializer.test_access_to_validated_data_attribute_before_validation_raises_error
TestBaseSerializer.test_serialize_instance TestBaseSerializer.test_serialize_list
TestBaseSerializer.test_validate_data TestBaseSerializer.test_validate_list
TestStarredSource.test_nested_validate TestStarredSource.test_nested_null_validate TestStarredSource.test_nested_serialize
TestStarredSource.test_field_validate TestStarredSource.test_field_null_validate
TestIncorrectlyConfigured.test_incorrect_field_name
TestNotRequiredOutput.test_not_required_output_for_dict TestNotRequiredOutput.test_not_required_output_for_object
TestDefaultOutput.test_default_used_for_dict TestDefaultOutput.test_default_used_for_object
TestDefaultOutput.test_default_not_used_when_in_dict TestDefaultOutput.test_default_not_used_when_in_object
TestDefaultOutput.test_default_for_dotted_source TestDefaultOutput.test_default_for_multiple_dotted_source
TestDefaultOutput.test_default_for_nested_serializer TestDefaultOutput.test_nested_serializer_not_required_with_querydict
TestDefaultOutput.test_default_for_allow_null
TestCacheSerializerData.test_cache_serializer_data
TestDefaultInclusions.test_default_should_included_on_create TestDefaultInclusions.test_default_should_be_included_on_update
TestDefaultInclusions.test_default_should_not_be_included_on_partial_update
TestSerializerValidationWithCompiledRegexField.test_validation_success
Test2555Regression.test_serializer_context
Test4606Regression.test_4606_regression
TestDeclaredFieldInheritance.test_declared_field_disabling TestDeclaredFieldInheritance.test_meta_field_disabling
TestDeclaredFieldInheritance.test_multiple_inheritance TestDeclaredFieldInheritance.test_field_ordering
Test8301Regression.test_ReturnDict_merging
TestSetValueMethod.test_no_keys TestSetValueMethod.test_one_key TestSetValueMethod.test_nested_key
TestWarningManyToMany.test_warning_many_to_many`)

// drfSerializerNotPortable are the methods the public API cannot
// express, each with why: Python's own API and types, or what a Go
// item cannot be (an item lacking one of its fields).
var drfSerializerNotPortable = map[string]string{
	"TestFieldImports.test_fields":    "Python's modules: the fields' classes imported into rest_framework.serializers",
	"TestFieldImports.test_relations": "Python's modules: the relations' classes imported into rest_framework.serializers",
	"TestSerializer.test_empty_serializer": "Python's API: a serializer of no instance and no data, whose data are the fields' " +
		"initial values; Data renders an item",
	"TestSerializer.test_missing_attribute_during_serialization": "Go's types: Data renders a *T, whose fields are the " +
		"serializer's; an item without them does not compile",
	"TestSerializer.test_data_access_before_save_raises_error": "Python's API: save()'s assertions on the serializer's state",
	"TestSerializer.test_serialize_chainmap":                   "Python's mappings: the data is the request's map[string]any",
	"TestSerializer.test_serialize_custom_mapping":             "Python's mappings: the data is the request's map[string]any",
	"TestSerializer.test_serializer_is_subscriptable":          "Python's typing (Serializer[...]); Go's generics are Serializer[T]",
	"TestBaseSerializer.test_abstract_methods_raise_proper_errors": "Python's API: BaseSerializer's abstract methods; " +
		"the Go serializer of a type is complete",
	"TestBaseSerializer.test_access_to_data_attribute_before_validation_raises_error":           "Python's API: a serializer's state",
	"TestBaseSerializer.test_access_to_errors_attribute_before_validation_raises_error":         "Python's API: a serializer's state",
	"TestBaseSerializer.test_access_to_validated_data_attribute_before_validation_raises_error": "Python's API: a serializer's state",
	"TestIncorrectlyConfigured.test_incorrect_field_name": "Go's types: a serializer's fields are its type's, so none " +
		"can miss its attribute (Fields naming none of them is refused by New)",
	"TestNotRequiredOutput.test_not_required_output_for_dict":   "Python's dicts: an item lacking a field's key",
	"TestNotRequiredOutput.test_not_required_output_for_object": "Python's objects: an item lacking a field's attribute",
	"TestDefaultOutput.test_default_used_for_dict":              "Python's dicts: an item lacking a field's key",
	"TestDefaultOutput.test_default_used_for_object":            "Python's objects: an item lacking a field's attribute",
	"TestDefaultOutput.test_default_for_dotted_source": "Python's dicts: a dotted source traversed through dicts; a Go " +
		"dotted source is the data source's join",
	"TestDefaultOutput.test_default_for_multiple_dotted_source": "Python's dicts and Django's attribute traversal of unsaved " +
		"instances; a Go dotted source is the data source's join",
	"TestDefaultOutput.test_default_for_nested_serializer":       "Python's dicts: nested items lacking keys",
	"TestCacheSerializerData.test_cache_serializer_data":         "Python's pickle",
	"Test2555Regression.test_serializer_context":                 "Python's API: a field's context property, read in __init__",
	"TestDeclaredFieldInheritance.test_declared_field_disabling": "Python's class inheritance",
	"TestDeclaredFieldInheritance.test_meta_field_disabling":     "Python's class inheritance",
	"TestDeclaredFieldInheritance.test_multiple_inheritance":     "Python's multiple inheritance",
	"TestDeclaredFieldInheritance.test_field_ordering":           "Python's multiple inheritance",
	"Test8301Regression.test_ReturnDict_merging":                 "Python's dict | operator on ReturnDict",
	"TestSetValueMethod.test_no_keys":                            "Python's API: Serializer.set_value",
	"TestSetValueMethod.test_one_key":                            "Python's API: Serializer.set_value",
	"TestSetValueMethod.test_nested_key":                         "Python's API: Serializer.set_value",
}

// drfSerializerDiffer are the ported items the framework answers
// otherwise, each with why (docs/drf-differences.md); a key that starts
// with a level's name is an item that differs at that level alone.
var drfSerializerDiffer = map[string]string{
	"drf314 TestWarningManyToMany.test_warning_many_to_many": "a many-to-many field's default is refused at setup at both " +
		"levels: DRF 3.14 takes it, and its create fails in .set(None), a 500",
}

// drfsItem is a ported method: answer is the Go counterpart's
// observation, compared with drf_serializer_suite.py's.
type drfsItem struct {
	name   string
	answer func(t *testing.T, level framework.Compatibility) any
}

// drfsOutcome validates body (JSON, or an HTML form) into a copy of
// start, partial or not, and answers as drf_serializer_suite.py's
// outcome: valid, the errors, and what was validated (the fields whose
// values the validation changed).
func drfsOutcome[T any](t *testing.T, mode, body string, start T, partial bool, level framework.Compatibility, opts ...serializers.Option) map[string]any {
	t.Helper()
	s := serializers.MustNew[T](opts...)
	data, c := edgeInput(t, mode, body, level)
	obj := start
	if err := s.Validate(data, &obj, partial, c); err != nil {
		return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err)), "validated": map[string]any{}}
	}
	return map[string]any{"valid": true, "errors": map[string]any{}, "validated": drfsChanged(t, start, obj)}
}

// drfsChanged is the fields (by their JSON names) whose values differ
// between before and after.
func drfsChanged[T any](t *testing.T, before, after T) map[string]any {
	t.Helper()
	var b, a map[string]any
	if json.Unmarshal(rawJSON(t, before), &b) != nil || json.Unmarshal(rawJSON(t, after), &a) != nil {
		t.Fatalf("%T is no JSON object", after)
	}
	out := map[string]any{}
	for k, v := range a {
		if canonicalJSON(t, rawJSON(t, v)) != canonicalJSON(t, rawJSON(t, b[k])) {
			out[k] = v
		}
	}
	return out
}

// drfsData renders item as serializer.data.
func drfsData[T any](t *testing.T, item T, opts ...serializers.Option) map[string]any {
	t.Helper()
	return map[string]any{"data": renderedWith(t, serializers.MustNew[T](opts...), item)}
}

var drfsStarredGroups = []serializers.Option{
	serializers.Group{Name: "nested1", Fields: []string{"a", "b"}},
	serializers.Group{Name: "nested2", Fields: []string{"c", "d"}},
}

const drfsExampleBody = `{"char":"abc","integer":123}`

// drfsIterableValidators is test_iterable_validators: validators=[],
// () or set() are no ValidateField, and [raise_exception] (or its tuple
// or set) one that refuses.
func drfsIterableValidators(t *testing.T, level framework.Compatibility) any {
	raising := serializers.ValidateField("char", func(v string, c *serializers.Context) (string, error) {
		return v, serializers.Invalid("Raised error")
	})
	out := map[string]any{}
	for _, kind := range []string{"list", "tuple", "set"} {
		out["none "+kind] = drfsOutcome(t, "json", drfsExampleBody, drfsExample{}, false, level)
		out["raising "+kind] = drfsOutcome(t, "json", drfsExampleBody, drfsExample{}, false, level, raising)
	}
	return out
}

// drfsEmailValidated is DRF's validated_data of TestBaseSerializer.
func drfsEmailValidated(it drfsEmailItem) map[string]any {
	return map[string]any{"id": it.ID, "name": it.Email.Name, "domain": it.Email.Domain}
}

var drfsEmailItems = []drfsEmailItem{{1, drfsAddress{"tom", "example.com"}}, {2, drfsAddress{"ann", "example.com"}}}

// drfsItems are the ported items.
var drfsItems = []drfsItem{
	{"TestSerializer.test_valid_serializer", func(t *testing.T, level framework.Compatibility) any {
		out := drfsOutcome(t, "json", drfsExampleBody, drfsExample{}, false, level)
		out["data"] = drfsData(t, drfsExample{Char: "abc", Integer: 123})["data"]
		return out
	}},
	// serializer.data of invalid data is the input again, which no Go
	// value holds: the item's other assertions are ported.
	{"TestSerializer.test_invalid_serializer", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `{"char":"abc"}`, drfsExample{}, false, level)
	}},
	{"TestSerializer.test_invalid_datatype", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `[{"char":"abc"}]`, drfsExample{}, false, level)
	}},
	{"TestSerializer.test_partial_validation", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `{"char":"abc"}`, drfsExample{}, true, level)
	}},
	{"TestSerializer.test_validate_none_data", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `null`, drfsExample{}, false, level)
	}},
	// to_internal_value making a Point of the validated fields is the
	// Go serializer's own: it validates into the type; srid is set as
	// the test's to_internal_value sets it, by the serializer.
	{"TestSerializer.test_custom_to_internal_value", func(t *testing.T, level framework.Compatibility) any {
		s := serializers.MustNew[drfsPoint](serializers.ValidateObject(func(p *drfsPoint, c *serializers.Context) error {
			p.SRID = 4326
			return nil
		}))
		data, c := edgeInput(t, "json", `{"longitude":6.958307,"latitude":50.941357}`, level)
		var p drfsPoint
		if err := s.Validate(data, &p, false, c); err != nil {
			return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err))}
		}
		return map[string]any{"valid": true, "errors": map[string]any{}, "srid": p.SRID, "coords": []float64{p.X, p.Y}}
	}},
	{"TestSerializer.test_iterable_validators", drfsIterableValidators},
	{"TestValidateMethod.test_non_field_error_validate_method", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", drfsExampleBody, drfsExample{}, false, level,
			serializers.ValidateObject(func(*drfsExample, *serializers.Context) error { return serializers.Invalid("Non field error") }))
	}},
	{"TestValidateMethod.test_field_error_validate_method", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", drfsExampleBody, drfsExample{}, false, level,
			serializers.ValidateObject(func(*drfsExample, *serializers.Context) error {
				var errs exceptions.ValidationErrors
				errs.Add("char", "Field error")
				return exceptions.ValidationError(errs)
			}))
	}},
	{"TestBaseSerializer.test_serialize_instance", func(t *testing.T, level framework.Compatibility) any {
		return drfsData(t, drfsEmailItems[0])
	}},
	{"TestBaseSerializer.test_serialize_list", func(t *testing.T, level framework.Compatibility) any {
		return map[string]any{"data": renderedWith(t, serializers.MustNew[drfsEmailItem](), drfsEmailItems)}
	}},
	{"TestBaseSerializer.test_validate_data", func(t *testing.T, level framework.Compatibility) any {
		s := serializers.MustNew[drfsEmailItem]()
		data, c := edgeInput(t, "json", `{"id":1,"email":"tom@example.com"}`, level)
		var it drfsEmailItem
		if err := s.Validate(data, &it, false, c); err != nil {
			return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err)), "validated": map[string]any{}}
		}
		return map[string]any{"valid": true, "errors": map[string]any{}, "validated": drfsEmailValidated(it)}
	}},
	{"TestBaseSerializer.test_validate_list", func(t *testing.T, level framework.Compatibility) any {
		r := listValidate[drfsEmailItem](t, "json", `[{"id":1,"email":"tom@example.com"},{"id":2,"email":"ann@example.com"}]`,
			serializers.ListOptions[drfsEmailItem]{}, level)
		if r.err != nil {
			return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, r.err)), "validated": []any{}}
		}
		validated := []any{}
		for _, it := range r.items {
			validated = append(validated, drfsEmailValidated(it))
		}
		return map[string]any{"valid": true, "errors": []any{}, "validated": validated}
	}},
	{"TestStarredSource.test_nested_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `{"nested1":{"a":1,"b":2},"nested2":{"c":3,"d":4}}`, drfsStarred{}, false, level, drfsStarredGroups...)
	}},
	// A Group is never nullable: DRF's nullable nested serializer of
	// source='*' refuses None too, its fields being required.
	{"TestStarredSource.test_nested_null_validate", func(t *testing.T, level framework.Compatibility) any {
		out := drfsOutcome(t, "json", `{"nested":null}`, drfsStarred{}, false, level,
			serializers.Fields("nested"), serializers.Group{Name: "nested", Fields: []string{"a", "b"}})
		return map[string]any{"valid": out["valid"]}
	}},
	{"TestStarredSource.test_nested_serialize", func(t *testing.T, level framework.Compatibility) any {
		return drfsData(t, drfsStarred{A: 1, B: 2, C: 3, D: 4}, drfsStarredGroups...)
	}},
	// The custom field of source='*' sets the item's foo from its
	// value: a field of the item, named otherwise.
	{"TestStarredSource.test_field_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfsFieldOutcome(t, `{"field":"bar"}`, level)
	}},
	{"TestStarredSource.test_field_null_validate", func(t *testing.T, level framework.Compatibility) any {
		return drfsFieldOutcome(t, `{"field":null}`, level)
	}},
	{"TestDefaultOutput.test_default_not_used_when_in_dict", func(t *testing.T, level framework.Compatibility) any {
		return drfsData(t, drfsDefaultOutput{HasDefault: "def", HasDefaultCallable: "ghi", NoDefault: "abc"})
	}},
	{"TestDefaultOutput.test_default_not_used_when_in_object", func(t *testing.T, level framework.Compatibility) any {
		return drfsData(t, drfsDefaultOutput{HasDefault: "def", HasDefaultCallable: "ghi", NoDefault: "abc"})
	}},
	// x holds what no validation writes: it is left as it was.
	{"TestDefaultOutput.test_nested_serializer_not_required_with_querydict", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "form", "name=test", drfsParent{X: "untouched"}, false, level,
			serializers.Group{Name: "nested", Fields: []string{"x"}, Optional: true})
	}},
	{"TestDefaultOutput.test_default_for_allow_null", func(t *testing.T, level framework.Compatibility) any {
		return drfsData(t, drfsAllowNull{})
	}},
	{"TestDefaultInclusions.test_default_should_included_on_create", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `{"integer":456}`, drfsDefaultInclusions{}, false, level)
	}},
	{"TestDefaultInclusions.test_default_should_be_included_on_update", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `{"integer":456}`, drfsDefaultInclusions{Char: "def", Integer: 123}, false, level)
	}},
	{"TestDefaultInclusions.test_default_should_not_be_included_on_partial_update", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `{"integer":456}`, drfsDefaultInclusions{Char: "def", Integer: 123}, true, level)
	}},
	{"TestSerializerValidationWithCompiledRegexField.test_validation_success", func(t *testing.T, level framework.Compatibility) any {
		return drfsOutcome(t, "json", `{"name":"2"}`, drfsRegex{}, false, level, serializers.Regex("name", `\d`))
	}},
	{"Test4606Regression.test_4606_regression", func(t *testing.T, level framework.Compatibility) any {
		r := listValidate[drfs4606](t, "json", `[{"name":"liz"}]`, serializers.ListOptions[drfs4606]{}, level)
		if r.err == nil {
			return map[string]any{"raises": false}
		}
		return map[string]any{"raises": true, "detail": json.RawMessage(errorJSON(t, r.err))}
	}},
	// The serializer's name is its class's in DRF's message.
	{"TestWarningManyToMany.test_warning_many_to_many", func(t *testing.T, level framework.Compatibility) any {
		_, err := serializers.New[drfsManyToManySource]()
		if err == nil {
			return map[string]any{"error": nil}
		}
		_, msg, _ := strings.Cut(err.Error(), ": The field ")
		return map[string]any{"error": "The field " + strings.Replace(msg, "'targets'", "'targets' on serializer 'ManyToManySourceSerializer'", 1)}
	}},
}

// drfsFieldOutcome is NullableFieldSerializer's outcome: validated_data
// is {'foo': ...}.
func drfsFieldOutcome(t *testing.T, body string, level framework.Compatibility) any {
	s := serializers.MustNew[drfsNullableField]()
	data, c := edgeInput(t, "json", body, level)
	untouched := "untouched"
	it := drfsNullableField{Foo: &untouched}
	if err := s.Validate(data, &it, false, c); err != nil {
		return map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err)), "validated": map[string]any{}}
	}
	return map[string]any{"valid": true, "errors": map[string]any{}, "validated": map[string]any{"foo": it.Foo}}
}

// TestDRFSerializer checks that every method is ported or listed as not
// portable, then runs the ported ones at both levels: each answers as
// DRF does, or is a listed difference.
func TestDRFSerializer(t *testing.T) {
	ported := map[string]bool{}
	for _, it := range drfsItems {
		ported[it.name] = true
	}
	if len(ported) != len(drfsItems) {
		t.Error("a method is ported twice")
	}
	for _, m := range drfsMethods {
		if _, np := drfSerializerNotPortable[m]; ported[m] == np {
			t.Errorf("%s is ported %v and listed as not portable %v", m, ported[m], np)
		}
	}
	if n := len(drfsItems) + len(drfSerializerNotPortable); n != len(drfsMethods) || len(drfsMethods) != 58 {
		t.Errorf("%d methods accounted for, of %d (58 in DRF's file)", n, len(drfsMethods))
	}
	for key := range drfSerializerDiffer {
		_, name, _ := strings.Cut(key, " ")
		if !ported[key] && !ported[name] {
			t.Errorf("listed difference %q is no ported item", key)
		}
	}
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		levelName := map[framework.Compatibility]string{framework.DRF314: "drf314", framework.DRF318: "drf318"}[level]
		t.Run(levelName, func(t *testing.T) {
			drf := drfScriptAnswers(t, "drf_serializer_suite.py", level)
			passed, listed := 0, 0
			for _, it := range drfsItems {
				want, ok := drf[it.name]
				if !ok {
					t.Fatalf("drf_serializer_suite.py has no answer for %s", it.name)
				}
				got := canonicalJSON(t, rawJSON(t, it.answer(t, level)))
				same := got == canonicalJSON(t, want)
				why, differs := drfSerializerDiffer[it.name]
				if w, ok := drfSerializerDiffer[levelName+" "+it.name]; ok {
					why, differs = w, true
				}
				switch {
				case differs && same:
					t.Errorf("%s passes, but is listed as a difference (%s)", it.name, why)
				case differs:
					listed++
				case same:
					passed++
				default:
					t.Errorf("%s:\n%s\nDRF %s", it.name, got, canonicalJSON(t, want))
				}
			}
			t.Logf("tests/test_serializer.py at %s: %d of %d methods ported, %d pass, %d listed differences; %d not portable",
				levelName, len(drfsItems), len(drfsMethods), passed, listed, len(drfSerializerNotPortable))
		})
	}
}

// drfsDefaults is drf_serializer_suite_defaults.py's Defaults: fields
// with a default (a pointer is nullable, DRF's allow_null=True).
type drfsDefaults struct {
	Char    string  `json:"char" drf:"default=abc"`
	Integer int64   `json:"integer" drf:"default=5"`
	Flag    bool    `json:"flag" drf:"default=true"`
	Note    *string `json:"note" drf:"default=None"`
	Name    string  `json:"name" drf:"required"`
}

// The drf tag's default= is DRF's default=: a create and a full update
// that leave the field out (or, in a form, leave it blank) get the
// default, a partial update does not, and null is no default; each
// answer as DRF's (testdata/drf_serializer_suite_defaults.py).
func TestFieldDefaultAsDRF(t *testing.T) {
	note := "n"
	instance := drfsDefaults{Char: "def", Integer: 9, Note: &note, Name: "old"}
	cases := map[string]struct {
		mode, body string
		start      drfsDefaults
		partial    bool
	}{
		"json create":         {"json", `{"name":"x"}`, drfsDefaults{}, false},
		"json update":         {"json", `{"name":"x"}`, instance, false},
		"json partial update": {"json", `{"name":"x"}`, instance, true},
		"json given":          {"json", `{"char":"c","integer":7,"flag":false,"note":"m","name":"x"}`, drfsDefaults{}, false},
		"json null":           {"json", `{"char":null,"integer":null,"note":null,"name":"x"}`, drfsDefaults{}, false},
		"form create":         {"form", "name=x", drfsDefaults{}, false},
		"form blank":          {"form", "name=x&char=&integer=&note=", drfsDefaults{}, false},
		"form partial update": {"form", "name=x", instance, true},
	}
	s := serializers.MustNew[drfsDefaults]()
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		t.Run(map[framework.Compatibility]string{framework.DRF314: "drf314", framework.DRF318: "drf318"}[level], func(t *testing.T) {
			drf := drfScriptAnswers(t, "drf_serializer_suite_defaults.py", level)
			for name, c := range cases {
				data, ctx := edgeInput(t, c.mode, c.body, level)
				obj := c.start
				out := map[string]any{"valid": true, "errors": map[string]any{}}
				switch err := s.Validate(data, &obj, c.partial, ctx); {
				case err != nil:
					out = map[string]any{"valid": false, "errors": json.RawMessage(errorJSON(t, err)), "validated": map[string]any{}}
				case c.partial:
					out["validated"] = drfsChanged(t, c.start, obj)
				default:
					// A full validation validates every field.
					out["validated"] = obj
				}
				got := canonicalJSON(t, rawJSON(t, out))
				if want := canonicalJSON(t, drf[name]); got != want {
					t.Errorf("%s:\n%s\nDRF %s", name, got, want)
				}
			}
		})
	}
}

// drfsDefaultModel's name is required by its model field (not blank)
// and optional by its tag's default, as a declared field with a default
// is in DRF's ModelSerializer.
type drfsDefaultModel struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name" drf:"default=anonymous" model:"max_length=100"`
}

func (drfsDefaultModel) Meta() models.Meta { return models.Meta{App: "tests", Name: "DefaultModel"} }

type (
	drfsRequiredDefault struct {
		Char string `json:"char" drf:"required,default=abc"`
	}
	drfsBadDefault struct {
		Integer int64 `json:"integer" drf:"default=abc"`
	}
	drfsNullDefault struct {
		Char string `json:"char" drf:"default=None"`
	}
	drfsListDefault struct {
		Items []string `json:"items" drf:"default=a"`
	}
	drfsChildDefault struct {
		Items []string `json:"items" drf:"child.default=a"`
	}
)

// A default is checked at setup: DRF's assertion on a required field
// with a default, DRF 3.15's refusal of a many-to-many field's, and a
// default the field would refuse as input. A model field's required
// gives way to it.
func TestFieldDefaultSetup(t *testing.T) {
	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"required":     {drfsNewErr[drfsRequiredDefault](), "drfsRequiredDefault.Char: May not set both `required` and `default`"},
		"many to many": {drfsNewErr[drfsManyToManySource](), "The field 'targets' is a ManyToMany field and cannot have a default value of None."},
		"not integer":  {drfsNewErr[drfsBadDefault](), `default "abc": A valid integer is required.`},
		"null":         {drfsNewErr[drfsNullDefault](), `default "None": This field may not be null.`},
		"list":         {drfsNewErr[drfsListDefault](), "a default needs a field of one string, number or boolean"},
		"child":        {drfsNewErr[drfsChildDefault](), "a list's or a dictionary's child has no default"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: New: %v, want %q", name, c.err, c.want)
		}
	}
	s := serializers.MustNew[drfsDefaultModel]()
	var it drfsDefaultModel
	if err := s.ValidateNew(map[string]any{}, &it, nil); err != nil || it.Name != "anonymous" {
		t.Errorf("ValidateNew({}): %v, name %q, want anonymous", err, it.Name)
	}
}

func drfsNewErr[T any]() error {
	_, err := serializers.New[T]()
	return err
}
