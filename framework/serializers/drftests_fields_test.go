package serializers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math/big"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/formats"
)

// DRF 3.18's tests/test_fields.py, ported onto the serializers: each of
// its FieldValues classes is a one-field serializer (the field "f") of
// the Go type that is that DRF field, with DRF's valid_inputs and
// invalid_inputs written as JSON. test_valid_inputs checks the value
// validated, as the field renders it (DRF's to_representation of DRF's
// expected value); test_invalid_inputs checks the errors, as DRF asserts
// them; test_outputs the rendering of a stored value, as the JSON
// renderer writes DRF's. Every item either passes, or is one of drfFieldsDiffer (a
// difference docs/drf-differences.md gives the reason for) or of
// drfFieldsNotPortable (with the reason); a listed item that passes fails
// the test, so the lists stay true.

// drfFieldValues is one FieldValues class: its name, its field, and its
// inputs, each [input, expected] in JSON; its outputs (test_outputs),
// each [stored, expected], the stored value as the Go type reads its
// JSON, are written by out; formats are the settings of its
// override_settings, nil for the defaults.
type drfFieldValues struct {
	class          string
	field          func(t *testing.T) edgeValidator
	valid, invalid [][2]string
	out            func(t *testing.T) edgeRenderer
	outputs        [][2]string
	formats        *framework.Formats
}

// edgeRenderer writes a stored value of the field "f" (its JSON as the
// Go type reads it) as {"value": ...}.
type edgeRenderer func(stored string, c *serializers.Context) (string, error)

func rendered[T any](opts ...serializers.Option) func(t *testing.T) edgeRenderer {
	return func(t *testing.T) edgeRenderer {
		s, err := serializers.New[T](opts...)
		if err != nil {
			t.Fatal(err)
		}
		return func(stored string, c *serializers.Context) (string, error) {
			var obj T
			if err := json.Unmarshal([]byte(`{"f":`+stored+`}`), &obj); err != nil {
				return "", err
			}
			out, err := s.Data(&obj, c)
			if err != nil {
				return "", err
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(out, &m); err != nil {
				return "", err
			}
			return `{"value":` + string(m["f"]) + `}`, nil
		}
	}
}

// The Go types of the classes' fields beyond field_edges_test.go's.
type (
	drfMinMaxInt struct {
		F int64 `json:"f" drf:"min_value=1,max_value=3"`
	}
	drfMinMaxFloat struct {
		F float64 `json:"f" drf:"min_value=1,max_value=3"`
	}
	drfEmail struct {
		F string `json:"f" drf:"email"`
	}
	drfSlug struct {
		F string `json:"f" drf:"slug"`
	}
	drfURL struct {
		F string `json:"f" drf:"url"`
	}
	drfIP struct {
		F string `json:"f" drf:"ip"`
	}
	drfUUID struct {
		F uuid.UUID `json:"f"`
	}
	drfDecimal struct {
		F decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1"`
	}
	drfNullDecimal struct {
		F *decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1"`
	}
	drfNullNumberDecimal struct {
		F *decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,coerce_to_string=false"`
	}
	drfMinMaxDecimal struct {
		F decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,min_value=10.0,max_value=20.0"`
	}
	drfNullMinMaxDecimal struct {
		F *decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,min_value=0,max_value=10"`
	}
	drfNoMaxDigitsDecimal struct {
		F decimal.Decimal `json:"f" drf:"decimal_places=2,min_value=0,max_value=100"`
	}
	drfNoPlacesDecimal struct {
		F decimal.Decimal `json:"f" drf:"max_digits=6"`
	}
	drfInputFormatDateTime struct {
		F time.Time `json:"f" drf:"default_timezone=UTC,input_formats=%I:%M%p\\, %d %b %Y"`
	}
	drfKolkataDateTime struct {
		F time.Time `json:"f" drf:"default_timezone=Asia/Kolkata"`
	}
	drfOutputFormatDateTime struct {
		F time.Time `json:"f" drf:"format=%I:%M%p\\, %d %b %Y"`
	}
	drfNumberDecimal struct {
		F decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,coerce_to_string=false"`
	}
	drfDate struct {
		F models.Date `json:"f"`
	}
	drfInputFormatDate struct {
		F models.Date `json:"f" drf:"input_formats=%d %b %Y"`
	}
	drfOutputFormatDate struct {
		F models.Date `json:"f" drf:"format=%d %b %Y"`
	}
	drfNoOutputFormatDate struct {
		F models.Date `json:"f" drf:"format=None"`
	}
	drfTime struct {
		F models.TimeOfDay `json:"f"`
	}
	drfInputFormatTime struct {
		F models.TimeOfDay `json:"f" drf:"input_formats=%I:%M%p"`
	}
	drfOutputFormatTime struct {
		F models.TimeOfDay `json:"f" drf:"format=%I:%M%p"`
	}
	drfNoOutputFormatTime struct {
		F models.TimeOfDay `json:"f" drf:"format=None"`
	}
	drfNotEmptyMultiple struct {
		F []string `json:"f" drf:"allow_empty=false"`
	}
	drfIntList struct {
		F []int `json:"f"`
	}
	drfNotEmptyList struct {
		F []int `json:"f" drf:"allow_empty=false"`
	}
	drfLimitedList struct {
		F []int `json:"f" drf:"min_length=3,max_length=4"`
	}
	drfCharDict struct {
		F map[string]string `json:"f"`
	}
	drfJSON struct {
		F json.RawMessage `json:"f"`
	}
	drfNoTrim struct {
		F string `json:"f" drf:"no_trim"`
	}
	drfBlankChoice struct {
		F string `json:"f" drf:"allow_blank"`
	}
	drfNullDict struct {
		F map[string]string `json:"f" drf:"allow_null"`
	}
	drfNotEmptyDict struct {
		F map[string]string `json:"f" drf:"allow_empty=false"`
	}
	drfHStore struct {
		F map[string]*string `json:"f"`
	}
	drfNullHStore struct {
		F map[string]*string `json:"f" drf:"allow_null"`
	}
)

func field[T any](opts ...serializers.Option) func(t *testing.T) edgeValidator {
	return func(t *testing.T) edgeValidator { return edgeCase[T](t, opts...) }
}

func choices(values ...string) []models.Choice {
	cs := make([]models.Choice, len(values))
	for i, v := range values {
		cs[i] = models.Choice{Value: v, Label: v}
	}
	return cs
}

const (
	msgBool     = `["Must be a valid boolean."]`
	msgNull     = `["This field may not be null."]`
	msgDateTime = `["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."]`
	msgDuration = `["Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu]."]`
	msgDays     = `["The number of days must be between -999999999 and 999999999."]`
	msgNumber   = `["A valid number is required."]`
	msgInt      = `["A valid integer is required."]`
	msgBigInt   = `["A valid biginteger is required."]`
	msgIPAddr   = `["Enter a valid IPv4 or IPv6 address."]`
	msgDate     = `["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."]`
	msgTime     = `["Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]]."]`
)

// factorial171 is math.factorial(171), TestFloatFieldOverFlowError's input.
var factorial171 = func() string {
	n := big.NewInt(1)
	for i := int64(2); i <= 171; i++ {
		n.Mul(n, big.NewInt(i))
	}
	return n.String()
}()

var drfFieldsClasses = []drfFieldValues{
	{class: "TestBooleanField", field: field[edgeBool](),
		valid: [][2]string{{`"True"`, `true`}, {`"TRUE"`, `true`}, {`"tRuE"`, `true`}, {`"t"`, `true`}, {`"T"`, `true`},
			{`"true"`, `true`}, {`"on"`, `true`}, {`"ON"`, `true`}, {`"oN"`, `true`}, {`"False"`, `false`}, {`"FALSE"`, `false`},
			{`"fALse"`, `false`}, {`"f"`, `false`}, {`"F"`, `false`}, {`"false"`, `false`}, {`"off"`, `false`}, {`"OFF"`, `false`},
			{`"oFf"`, `false`}, {`"1"`, `true`}, {`"0"`, `false`}, {`1`, `true`}, {`0`, `false`}, {`true`, `true`}, {`false`, `false`}},
		invalid: [][2]string{{`"foo"`, msgBool}, {`null`, msgNull}}},
	{class: "TestNullableBooleanField", field: field[edgeNullBool](),
		valid: [][2]string{{`"true"`, `true`}, {`"false"`, `false`}, {`"null"`, `null`}, {`true`, `true`}, {`false`, `false`},
			{`null`, `null`}},
		invalid: [][2]string{{`"foo"`, msgBool}}},
	{class: "TestCharField", field: field[edgeChar](),
		valid:   [][2]string{{`1`, `"1"`}, {`"abc"`, `"abc"`}},
		invalid: [][2]string{{`[]`, `["Not a valid string."]`}, {`true`, `["Not a valid string."]`}, {`""`, `["This field may not be blank."]`}}},
	{class: "TestEmailField", field: field[drfEmail](),
		valid:   [][2]string{{`"example@example.com"`, `"example@example.com"`}, {`" example@example.com "`, `"example@example.com"`}},
		invalid: [][2]string{{`"examplecom"`, `["Enter a valid email address."]`}}},
	{class: "TestRegexField", field: field[edgeChar](serializers.Regex("f", "[a-z][0-9]")),
		valid:   [][2]string{{`"a9"`, `"a9"`}},
		invalid: [][2]string{{`"A9"`, `["This value does not match the required pattern."]`}}},
	{class: "TestiCompiledRegexField", field: field[edgeChar](serializers.Regex("f", "[a-z][0-9]")),
		valid:   [][2]string{{`"a9"`, `"a9"`}},
		invalid: [][2]string{{`"A9"`, `["This value does not match the required pattern."]`}}},
	{class: "TestSlugField", field: field[drfSlug](),
		valid:   [][2]string{{`"slug-99"`, `"slug-99"`}},
		invalid: [][2]string{{`"slug 99"`, `["Enter a valid \"slug\" consisting of letters, numbers, underscores or hyphens."]`}}},
	{class: "TestURLField", field: field[drfURL](),
		valid:   [][2]string{{`"http://example.com"`, `"http://example.com"`}},
		invalid: [][2]string{{`"example.com"`, `["Enter a valid URL."]`}}},
	{class: "TestUUIDField", field: field[drfUUID](),
		valid: [][2]string{{`"825d7aeb-05a9-45b5-a5b7-05df87923cda"`, `"825d7aeb-05a9-45b5-a5b7-05df87923cda"`},
			{`"825d7aeb05a945b5a5b705df87923cda"`, `"825d7aeb-05a9-45b5-a5b7-05df87923cda"`},
			{`"urn:uuid:213b7d9b-244f-410d-828c-dabce7a2615d"`, `"213b7d9b-244f-410d-828c-dabce7a2615d"`},
			{`284758210125106368185219588917561929842`, `"d63a6fb6-88d5-40c7-a91c-9edf73283072"`}},
		invalid: [][2]string{{`"825d7aeb-05a9-45b5-a5b7"`, `["Must be a valid UUID."]`}, {`[1, 2, 3]`, `["Must be a valid UUID."]`}}},
	{class: "TestIPAddressField", field: field[drfIP](),
		valid: [][2]string{{`"127.0.0.1"`, `"127.0.0.1"`}, {`"192.168.33.255"`, `"192.168.33.255"`},
			{`"2001:0db8:85a3:0042:1000:8a2e:0370:7334"`, `"2001:db8:85a3:42:1000:8a2e:370:7334"`},
			{`"2001:cdba:0:0:0:0:3257:9652"`, `"2001:cdba::3257:9652"`}, {`"2001:cdba::3257:9652"`, `"2001:cdba::3257:9652"`}},
		invalid: [][2]string{{`"127001"`, msgIPAddr}, {`"127.122.111.2231"`, msgIPAddr}, {`"2001:::9652"`, msgIPAddr},
			{`"2001:0db8:85a3:0042:1000:8a2e:0370:73341"`, msgIPAddr}, {`1000`, msgIPAddr}}},
	{class: "TestIntegerField", field: field[edgeInt](),
		valid:   [][2]string{{`"1"`, `1`}, {`"0"`, `0`}, {`1`, `1`}, {`0`, `0`}, {`1.0`, `1`}, {`0.0`, `0`}, {`"1.0"`, `1`}},
		invalid: [][2]string{{`0.5`, msgInt}, {`"abc"`, msgInt}, {`"0.5"`, msgInt}}},
	{class: "TestMinMaxIntegerField", field: field[drfMinMaxInt](),
		valid: [][2]string{{`"1"`, `1`}, {`"3"`, `3`}, {`1`, `1`}, {`3`, `3`}},
		invalid: [][2]string{{`0`, `["Ensure this value is greater than or equal to 1."]`}, {`4`, `["Ensure this value is less than or equal to 3."]`},
			{`"0"`, `["Ensure this value is greater than or equal to 1."]`}, {`"4"`, `["Ensure this value is less than or equal to 3."]`}}},
	{class: "TestBigIntegerField", field: field[edgeInt](),
		valid: [][2]string{{`"1"`, `1`}, {`"0"`, `0`}, {`1`, `1`}, {`0`, `0`}, {`123`, `123`}, {`-123`, `-123`},
			{`"999999999999999999999999999"`, `999999999999999999999999999`},
			{`-999999999999999999999999999`, `-999999999999999999999999999`}, {`1.0`, `1`}, {`0.0`, `0`}, {`"1.0"`, `1`}},
		invalid: [][2]string{{`0.5`, msgBigInt}, {`"abc"`, msgBigInt}, {`"0.5"`, msgBigInt}}},
	{class: "TestMinMaxBigIntegerField", field: field[drfMinMaxInt](),
		valid: [][2]string{{`"1"`, `1`}, {`"3"`, `3`}, {`1`, `1`}, {`3`, `3`}},
		invalid: [][2]string{{`0`, `["Ensure this value is greater than or equal to 1."]`}, {`4`, `["Ensure this value is less than or equal to 3."]`},
			{`"0"`, `["Ensure this value is greater than or equal to 1."]`}, {`"4"`, `["Ensure this value is less than or equal to 3."]`}}},
	{class: "TestFloatField", field: field[edgeFloat](),
		valid:   [][2]string{{`"1"`, `1.0`}, {`"0"`, `0.0`}, {`1`, `1.0`}, {`0`, `0.0`}, {`1.0`, `1.0`}, {`0.0`, `0.0`}},
		invalid: [][2]string{{`"abc"`, msgNumber}}},
	{class: "TestMinMaxFloatField", field: field[drfMinMaxFloat](),
		valid: [][2]string{{`"1"`, `1`}, {`"3"`, `3`}, {`1`, `1`}, {`3`, `3`}, {`1.0`, `1.0`}, {`3.0`, `3.0`}},
		invalid: [][2]string{{`0.9`, `["Ensure this value is greater than or equal to 1."]`}, {`3.1`, `["Ensure this value is less than or equal to 3."]`},
			{`"0.0"`, `["Ensure this value is greater than or equal to 1."]`}, {`"3.1"`, `["Ensure this value is less than or equal to 3."]`}}},
	{class: "TestFloatFieldOverFlowError", field: field[edgeFloat](),
		invalid: [][2]string{{factorial171, `["Integer value too large to convert to float"]`}}},
	{class: "TestDecimalField", field: field[drfDecimal](),
		valid: [][2]string{{`"12.3"`, `"12.3"`}, {`"0.1"`, `"0.1"`}, {`10`, `"10.0"`}, {`0`, `"0.0"`}, {`12.3`, `"12.3"`},
			{`0.1`, `"0.1"`}, {`"2E+1"`, `"20.0"`}},
		invalid: [][2]string{{`null`, msgNull}, {`""`, msgNumber}, {`" "`, msgNumber}, {`"abc"`, msgNumber},
			{`"Nan"`, msgNumber}, {`"Snan"`, msgNumber}, {`"Inf"`, msgNumber},
			{`"12.345"`, `["Ensure that there are no more than 3 digits in total."]`},
			{`200000000000.0`, `["Ensure that there are no more than 3 digits in total."]`},
			{`"0.01"`, `["Ensure that there are no more than 1 decimal places."]`},
			{`123`, `["Ensure that there are no more than 2 digits before the decimal point."]`},
			{`"2E+2"`, `["Ensure that there are no more than 2 digits before the decimal point."]`}}},
	{class: "TestAllowNullDecimalField", field: field[drfNullDecimal](),
		valid: [][2]string{{`null`, `null`}, {`""`, `null`}, {`" "`, `null`}}},
	{class: "TestAllowNullNoStringCoercionDecimalField", field: field[drfNullNumberDecimal](),
		valid: [][2]string{{`null`, `null`}, {`""`, `null`}, {`" "`, `null`}}},
	{class: "TestMinMaxDecimalField", field: field[drfMinMaxDecimal](),
		valid: [][2]string{{`"10.0"`, `"10.0"`}, {`"20.0"`, `"20.0"`}},
		invalid: [][2]string{{`"9.9"`, `["Ensure this value is greater than or equal to 10.0."]`},
			{`"20.1"`, `["Ensure this value is less than or equal to 20.0."]`}}},
	{class: "TestAllowEmptyStrDecimalFieldWithValidators", field: field[drfNullMinMaxDecimal](),
		valid: [][2]string{{`null`, `null`}, {`""`, `null`}, {`" "`, `null`}, {`"  "`, `null`}, {`5`, `"5.0"`}, {`"0"`, `"0.0"`},
			{`"10"`, `"10.0"`}},
		invalid: [][2]string{{`-1`, `["Ensure this value is greater than or equal to 0."]`},
			{`11`, `["Ensure this value is less than or equal to 10."]`}}},
	{class: "TestNoMaxDigitsDecimalField", field: field[drfNoMaxDigitsDecimal](),
		valid: [][2]string{{`"10"`, `"10.00"`}}},
	{class: "TestNoDecimalPlaces", field: field[drfNoPlacesDecimal](),
		valid:   [][2]string{{`"0.12345"`, `"0.12345"`}},
		invalid: [][2]string{{`"0.1234567"`, `["Ensure that there are no more than 6 digits in total."]`}}},
	{class: "TestCustomInputFormatDateTimeField", field: field[drfInputFormatDateTime](),
		valid: [][2]string{{`"1:35pm, 1 Jan 2001"`, `"2001-01-01T13:35:00Z"`}},
		invalid: [][2]string{{`"2001-01-01T20:50"`,
			`["Datetime has wrong format. Use one of these formats instead: hh:mm[AM|PM], DD [Jan-Dec] YYYY."]`}}},
	{class: "TestTZWithDateTimeField", field: field[drfKolkataDateTime](),
		valid: [][2]string{{`"2016-12-19T10:00:00"`, `"2016-12-19T10:00:00+05:30"`},
			{`"2016-12-19T10:00:00+05:30"`, `"2016-12-19T10:00:00+05:30"`}},
		out:     rendered[drfKolkataDateTime](),
		outputs: [][2]string{{`"2016-12-19T04:30:00Z"`, `"2016-12-19T10:00:00+05:30"`}}},
	{class: "TestDateTimeField", field: field[edgeDateTime](),
		valid: [][2]string{{`"2001-01-01 13:00"`, `"2001-01-01T13:00:00Z"`}, {`"2001-01-01T13:00"`, `"2001-01-01T13:00:00Z"`},
			{`"2001-01-01T13:00Z"`, `"2001-01-01T13:00:00Z"`}},
		invalid: [][2]string{{`"abc"`, msgDateTime}, {`"2001-99-99T99:00"`, msgDateTime}, {`"2018-08-16 22:00-24:00"`, msgDateTime},
			{`"9999-12-31T21:59:59.99990-03:00"`, `["Datetime value out of range."]`}},
		out:     rendered[edgeDateTime](),
		outputs: [][2]string{{`"2001-01-01T13:00:00Z"`, `"2001-01-01T13:00:00Z"`}}},
	{class: "TestCustomOutputFormatDateTimeField", out: rendered[drfOutputFormatDateTime](),
		outputs: [][2]string{{`"2001-01-01T13:00:00Z"`, `"01:00PM, 01 Jan 2001"`}}},
	{class: "TestNaiveDateTimeField", field: field[edgeDateTime](), formats: &framework.Formats{DisableUseTZ: true},
		valid:   [][2]string{{`"2001-01-01 13:00"`, `"2001-01-01T13:00:00"`}},
		out:     rendered[edgeDateTime](),
		outputs: [][2]string{{`"2001-01-01T13:00:00Z"`, `"2001-01-01T13:00:00"`}}},
	{class: "TestDateField", field: field[drfDate](),
		valid:   [][2]string{{`"2001-01-01"`, `"2001-01-01"`}},
		invalid: [][2]string{{`"abc"`, msgDate}, {`"2001-99-99"`, msgDate}, {`"2001-01"`, msgDate}, {`"2001"`, msgDate}},
		out:     rendered[drfDate](),
		outputs: [][2]string{{`"2001-01-01"`, `"2001-01-01"`}, {`"2016-01-10"`, `"2016-01-10"`}}},
	{class: "TestCustomInputFormatDateField", field: field[drfInputFormatDate](),
		valid:   [][2]string{{`"1 Jan 2001"`, `"2001-01-01"`}},
		invalid: [][2]string{{`"2001-01-01"`, `["Date has wrong format. Use one of these formats instead: DD [Jan-Dec] YYYY."]`}}},
	{class: "TestCustomOutputFormatDateField", out: rendered[drfOutputFormatDate](),
		outputs: [][2]string{{`"2001-01-01"`, `"01 Jan 2001"`}}},
	{class: "TestNoOutputFormatDateField", out: rendered[drfNoOutputFormatDate](),
		outputs: [][2]string{{`"2001-01-01"`, `"2001-01-01"`}}},
	{class: "TestTimeField", field: field[drfTime](),
		valid:   [][2]string{{`"13:00"`, `"13:00:00"`}},
		invalid: [][2]string{{`"abc"`, msgTime}, {`"99:99"`, msgTime}},
		out:     rendered[drfTime](),
		outputs: [][2]string{{`"13:00:00"`, `"13:00:00"`}, {`"00:00:00"`, `"00:00:00"`}}},
	{class: "TestCustomInputFormatTimeField", field: field[drfInputFormatTime](),
		valid:   [][2]string{{`"1:00pm"`, `"13:00:00"`}},
		invalid: [][2]string{{`"13:00"`, `["Time has wrong format. Use one of these formats instead: hh:mm[AM|PM]."]`}}},
	{class: "TestCustomOutputFormatTimeField", out: rendered[drfOutputFormatTime](),
		outputs: [][2]string{{`"13:00:00"`, `"01:00PM"`}}},
	{class: "TestNoOutputFormatTimeField", out: rendered[drfNoOutputFormatTime](),
		outputs: [][2]string{{`"13:00:00"`, `"13:00:00"`}}},
	{class: "TestNoStringCoercionDecimalField", out: rendered[drfNumberDecimal](),
		outputs: [][2]string{{`"1.09"`, `1.1`}, {`"0.04"`, `0.0`}}},
	{class: "TestDurationField", field: field[edgeDuration](),
		valid: [][2]string{{`"13"`, `"00:00:13"`}, {`"3 08:32:01.000123"`, `"3 08:32:01.000123"`}, {`"08:01"`, `"00:08:01"`},
			{`3600`, `"01:00:00"`}, {`"-999999999 00"`, `"-999999999 00:00:00"`}, {`"999999999 00"`, `"999999999 00:00:00"`}},
		invalid: [][2]string{{`"abc"`, msgDuration}, {`"3 08:32 01.123"`, msgDuration}, {`"-1000000000 00"`, msgDays},
			{`"1000000000 00"`, msgDays}},
		out:     rendered[edgeDuration](),
		outputs: [][2]string{{`289921000123000`, `"3 08:32:01.000123"`}}},
	{class: "TestMinMaxDurationField", field: field[optDurationMinMax](),
		valid: [][2]string{{`"3 08:32:01.000123"`, `"3 08:32:01.000123"`}, {`86401`, `"1 00:00:01"`}},
		invalid: [][2]string{{`3600`, `["Ensure this value is greater than or equal to 1 day, 0:00:00."]`},
			{`"4 08:32:01.000123"`, `["Ensure this value is less than or equal to 4 days, 0:00:00."]`},
			{`"3600"`, `["Ensure this value is greater than or equal to 1 day, 0:00:00."]`}}},
	// DRF's outputs are the timedelta itself, which its JSON encoder
	// writes as its total_seconds().
	{class: "TestNoOutputFormatDurationField", out: rendered[optDurationNone](),
		outputs: [][2]string{{`86400000000000`, `"86400.0"`}}},
	{class: "TestISOOutputFormatDurationField", field: field[optDurationISO](),
		valid: [][2]string{{`"13"`, `"P0DT00H00M13S"`}, {`"P3DT08H32M01.000123S"`, `"P3DT08H32M01.000123S"`},
			{`"PT8H1M"`, `"P0DT08H01M00S"`}, {`"-P999999999D"`, `"-P999999999DT00H00M00S"`},
			{`"P999999999D"`, `"P999999999DT00H00M00S"`}},
		out:     rendered[optDurationISO](),
		outputs: [][2]string{{`289921000123000`, `"P3DT08H32M01.000123S"`}}},
	// DRF's path is the test file's folder, its valid input the test
	// file: here the folder testdata/filepath and a file of it.
	{class: "TestFilePathField", field: field[fpFiles](),
		valid:   [][2]string{{`"testdata/filepath/alpha.txt"`, `"testdata/filepath/alpha.txt"`}},
		invalid: [][2]string{{`"wrong_path"`, `["\"wrong_path\" is not a valid path choice."]`}}},
	{class: "TestIPv4AddressField", field: field[optIPv4](),
		valid:   [][2]string{{`"127.0.0.1"`, `"127.0.0.1"`}, {`"192.168.33.255"`, `"192.168.33.255"`}},
		invalid: [][2]string{{`"127001"`, `["Enter a valid IPv4 address."]`}, {`"127.122.111.2231"`, `["Enter a valid IPv4 address."]`}}},
	{class: "TestIPv6AddressField", field: field[optIPv6](),
		valid: [][2]string{{`"2001:0db8:85a3:0042:1000:8a2e:0370:7334"`, `"2001:db8:85a3:42:1000:8a2e:370:7334"`},
			{`"2001:cdba:0:0:0:0:3257:9652"`, `"2001:cdba::3257:9652"`}, {`"2001:cdba::3257:9652"`, `"2001:cdba::3257:9652"`}},
		invalid: [][2]string{{`"2001:::9652"`, msgIPAddr}, {`"2001:0db8:85a3:0042:1000:8a2e:0370:73341"`, msgIPAddr}}},
	// DRF's outputs of "1" (a str) are an int field's of 1.
	{class: "TestChoiceFieldWithType", field: field[edgeInt](serializers.Choices("f", []models.Choice{
		{Value: "1", Label: "Poor quality"}, {Value: "2", Label: "Medium quality"}, {Value: "3", Label: "Good quality"}})),
		valid:   [][2]string{{`"1"`, `1`}, {`3`, `3`}},
		invalid: [][2]string{{`5`, `["\"5\" is not a valid choice."]`}, {`"abc"`, `["\"abc\" is not a valid choice."]`}},
		out:     rendered[edgeInt](),
		outputs: [][2]string{{`1`, `1`}}},
	// Grouped choices are their choices, listed flat (DRF's OPTIONS list
	// them flat too).
	{class: "TestChoiceFieldWithGroupedChoices", field: field[edgeChar](serializers.Choices("f", []models.Choice{
		{Value: "poor", Label: "Poor quality"}, {Value: "medium", Label: "Medium quality"}, {Value: "good", Label: "Good quality"}})),
		valid:   [][2]string{{`"poor"`, `"poor"`}, {`"medium"`, `"medium"`}, {`"good"`, `"good"`}},
		invalid: [][2]string{{`"awful"`, `["\"awful\" is not a valid choice."]`}},
		out:     rendered[edgeChar](),
		outputs: [][2]string{{`"good"`, `"good"`}}},
	{class: "TestChoiceFieldWithMixedChoices", field: field[edgeChar](serializers.Choices("f", []models.Choice{
		{Value: "poor", Label: "Poor quality"}, {Value: "medium", Label: "medium"}, {Value: "good", Label: "Good quality"}})),
		valid:   [][2]string{{`"poor"`, `"poor"`}, {`"medium"`, `"medium"`}, {`"good"`, `"good"`}},
		invalid: [][2]string{{`"awful"`, `["\"awful\" is not a valid choice."]`}},
		out:     rendered[edgeChar](),
		outputs: [][2]string{{`"good"`, `"good"`}}},
	// DRF's bytes input is a JSON string here, and its bytes output the
	// text its JSON encoder writes of them.
	{class: "TestBinaryJSONField", field: field[optJSONBinary](),
		valid: [][2]string{{`"{\"a\": 1, \"3\": null, \"b\": [\"some\", \"list\", true, 1.23]}"`,
			`"{\"a\": 1, \"3\": null, \"b\": [\"some\", \"list\", true, 1.23]}"`}},
		invalid: [][2]string{{`"{\"a\": \"unterminated string}"`, `["Value must be valid JSON."]`}},
		out:     rendered[optJSONBinary](),
		outputs: [][2]string{{`["some","list",true,1.23]`, `"[\"some\", \"list\", true, 1.23]"`}}},
	{class: "TestChoiceField", field: field[edgeChar](serializers.Choices("f", choices("poor", "medium", "good"))),
		valid:   [][2]string{{`"poor"`, `"poor"`}, {`"medium"`, `"medium"`}, {`"good"`, `"good"`}},
		invalid: [][2]string{{`"amazing"`, `["\"amazing\" is not a valid choice."]`}}},
	{class: "TestMultipleChoiceField", field: field[edgeMultiple](serializers.Choices("f", choices("aircon", "manual", "diesel"))),
		valid: [][2]string{{`[]`, `[]`}, {`["aircon"]`, `["aircon"]`}, {`["aircon", "aircon"]`, `["aircon"]`},
			{`["aircon", "manual"]`, `["aircon", "manual"]`}, {`["manual", "aircon"]`, `["manual", "aircon"]`}},
		invalid: [][2]string{{`"abc"`, `["Expected a list of items but got type \"str\"."]`},
			{`["aircon", "incorrect"]`, `["\"incorrect\" is not a valid choice."]`}}},
	{class: "TestEmptyMultipleChoiceField",
		field:   field[drfNotEmptyMultiple](serializers.Choices("f", choices("consistency", "availability", "partition"))),
		invalid: [][2]string{{`[]`, `["This selection may not be empty."]`}}},
	{class: "TestListField", field: field[drfIntList](),
		valid: [][2]string{{`[1, 2, 3]`, `[1, 2, 3]`}, {`["1", "2", "3"]`, `[1, 2, 3]`}, {`[]`, `[]`}},
		invalid: [][2]string{{`"not a list"`, `["Expected a list of items but got type \"str\"."]`},
			{`[1, 2, "error", "error"]`, `{"2": ["A valid integer is required."], "3": ["A valid integer is required."]}`},
			{`{"one": "two"}`, `["Expected a list of items but got type \"dict\"."]`}}},
	{class: "TestEmptyListField", field: field[drfNotEmptyList](),
		invalid: [][2]string{{`[]`, `["This list may not be empty."]`}}},
	{class: "TestListFieldLengthLimit", field: field[drfLimitedList](),
		invalid: [][2]string{{`[0, 1]`, `["Ensure this field has at least 3 elements."]`},
			{`[0, 1, 2, 3, 4, 5]`, `["Ensure this field has no more than 4 elements."]`}}},
	{class: "TestDictField", field: field[drfCharDict](),
		valid: [][2]string{{`{"a": 1, "b": "2", "3": 3}`, `{"a": "1", "b": "2", "3": "3"}`}, {`{}`, `{}`}},
		invalid: [][2]string{{`{"a": 1, "b": null, "c": null}`, `{"b": ["This field may not be null."], "c": ["This field may not be null."]}`},
			{`"not a dict"`, `["Expected a dictionary of items but got type \"str\"."]`}}},
	// The container classes: containers_drf_test.go's types, whose
	// outputs are stored as the Go type holds them (3 as "3" in a string).
	{class: "TestNestedListField", field: field[listOfLists](),
		valid: [][2]string{{`[[1, 2], [3]]`, `[[1, 2], [3]]`}, {`[[]]`, `[[]]`}},
		invalid: [][2]string{{`["not a list"]`, `{"0": ["Expected a list of items but got type \"str\"."]}`},
			{`[[1, 2, "error"], ["error"]]`, `{"0": {"2": ["A valid integer is required."]}, "1": {"0": ["A valid integer is required."]}}`},
			{`[{"one": "two"}]`, `{"0": ["Expected a list of items but got type \"dict\"."]}`}},
		out: rendered[listOfLists](), outputs: [][2]string{{`[[1, 2], [3]]`, `[[1, 2], [3]]`}}},
	{class: "TestUnvalidatedListField", field: field[anyList](),
		valid:   [][2]string{{`[1, "2", true, [4, 5, 6]]`, `[1, "2", true, [4, 5, 6]]`}},
		invalid: [][2]string{{`"not a list"`, `["Expected a list of items but got type \"str\"."]`}},
		out:     rendered[anyList](), outputs: [][2]string{{`[1, "2", true, [4, 5, 6]]`, `[1, "2", true, [4, 5, 6]]`}}},
	{class: "TestNestedDictField", field: field[dictOfDicts](),
		valid: [][2]string{{`{"0": {"a": 1, "b": "2"}, "1": {"3": 3}}`, `{"0": {"a": "1", "b": "2"}, "1": {"3": "3"}}`}},
		invalid: [][2]string{{`{"0": {"a": 1, "b": null}, "1": {"c": null}}`, `{"0": {"b": ["This field may not be null."]}, "1": {"c": ["This field may not be null."]}}`},
			{`{"0": "not a dict"}`, `{"0": ["Expected a dictionary of items but got type \"str\"."]}`}},
		out: rendered[dictOfDicts](), outputs: [][2]string{{`{"0": {"a": "1", "b": "2"}, "1": {"3": "3"}}`, `{"0": {"a": "1", "b": "2"}, "1": {"3": "3"}}`}}},
	{class: "TestDictFieldWithNullChild", field: field[nullCharDict](),
		valid: [][2]string{{`{"a": null, "b": "2", "3": 3}`, `{"a": null, "b": "2", "3": "3"}`}},
		out:   rendered[nullCharDict](), outputs: [][2]string{{`{"a": null, "b": "2", "3": "3"}`, `{"a": null, "b": "2", "3": "3"}`}}},
	{class: "TestUnvalidatedDictField", field: field[anyDict](),
		valid:   [][2]string{{`{"a": 1, "b": [4, 5, 6], "1": 123}`, `{"a": 1, "b": [4, 5, 6], "1": 123}`}},
		invalid: [][2]string{{`"not a dict"`, `["Expected a dictionary of items but got type \"str\"."]`}},
		out:     rendered[anyDict](), outputs: [][2]string{{`{"a": 1, "b": [4, 5, 6]}`, `{"a": 1, "b": [4, 5, 6]}`}}},
	// A map[string]*string is an HStoreField: a DictField of CharFields
	// that allow null.
	{class: "TestHStoreField", field: field[drfHStore](),
		valid:   [][2]string{{`{"a": 1, "b": "2", "3": 3}`, `{"a": "1", "b": "2", "3": "3"}`}, {`{"a": 1, "b": null}`, `{"a": "1", "b": null}`}},
		invalid: [][2]string{{`"not a dict"`, `["Expected a dictionary of items but got type \"str\"."]`}},
		out:     rendered[drfHStore](),
		outputs: [][2]string{{`{"a": "1", "b": "2", "3": "3"}`, `{"a": "1", "b": "2", "3": "3"}`}}},
	{class: "TestJSONField", field: field[drfJSON](),
		valid: [][2]string{{`{"a": 1, "b": ["some", "list", true, 1.23], "3": null}`, `{"a": 1, "b": ["some", "list", true, 1.23], "3": null}`}}},
}

// drfFieldsDiffer are the items a Go field answers otherwise, each with
// its section of docs/drf-differences.md.
var drfFieldsDiffer = map[string]string{
	`TestBigIntegerField.test_valid_inputs "999999999999999999999999999"`: "a field holds what its Go type holds (an int64)",
	`TestBigIntegerField.test_valid_inputs -999999999999999999999999999`:  "a field holds what its Go type holds (an int64)",
	`TestBigIntegerField.test_invalid_inputs 0.5`:                         "a field holds what its Go type holds (the IntegerField message)",
	`TestBigIntegerField.test_invalid_inputs "abc"`:                       "a field holds what its Go type holds (the IntegerField message)",
	`TestBigIntegerField.test_invalid_inputs "0.5"`:                       "a field holds what its Go type holds (the IntegerField message)",
	`TestDurationField.test_valid_inputs "-999999999 00"`:                 "a field holds what its Go type holds (a time.Duration)",
	`TestDurationField.test_valid_inputs "999999999 00"`:                  "a field holds what its Go type holds (a time.Duration)",
	`TestISOOutputFormatDurationField.test_valid_inputs "-P999999999D"`:   "a field holds what its Go type holds (a time.Duration)",
	`TestISOOutputFormatDurationField.test_valid_inputs "P999999999D"`:    "a field holds what its Go type holds (a time.Duration)",
}

// drfFields314 are DRF 3.14's answers where they differ from DRF 3.18's
// (/usr/bin/python3 with Debian's DRF 3.14; drf_field_edges.py pins
// them too): at the 3.14 level the item answers this instead.
var drfFields314 = map[string]string{
	`TestBooleanField.test_valid_inputs "tRuE"`:  `{"errors": ["Must be a valid boolean."]}`,
	`TestBooleanField.test_valid_inputs "oN"`:    `{"errors": ["Must be a valid boolean."]}`,
	`TestBooleanField.test_valid_inputs "fALse"`: `{"errors": ["Must be a valid boolean."]}`,
	`TestBooleanField.test_valid_inputs "oFf"`:   `{"errors": ["Must be a valid boolean."]}`,
}

// drfFieldsNotPortable are the classes, and the methods of ported
// classes, that cannot be written against the serializers, each with
// why: Python's own API, Python objects no request body carries, or an
// option with no counterpart (issue 41's "With no counterpart at all").
// test_outputs is ported where DRF's outputs are the field's own type
// (a date, a time, a datetime, a decimal, held by the Go type): the
// date, time and decimal classes' outputs of options and settings. The
// others render Python values of any type (strings, None) a Go field
// does not hold, whose rendering of its own type test_valid_inputs checks.
var drfFieldsNotPortable = map[string]string{
	"TestIsSimpleCallable":    "Python's API: callables",
	"TestSource":              "Python's API: source= names a Python attribute or callable (a Go field's source is its struct field)",
	"TestInitialWithCallable": "Python's API: callables (drf:\"initial=\" is a value, as drf:\"default=\")",
	"TestInvalidErrorKey":     "Python's API: error_messages keys",
	"Test5087Regression":      "Python's API: Field.bind",
	"TestTyping":              "Python's API: typing subscripts",
	"TestHTMLInput.test_empty_html_uuidfield_with_default":                 "Python's API: default=uuid.uuid4, a callable (drf:\"default=\" is a value)",
	"TestCreateOnlyDefault.test_create_only_default_callable_sets_context": "Python's API: a callable's requires_context (CreateOnlyHiddenField's function is given the Context)",
	"TestInvalidImageField.test_invalid_inputs goodimage.html":             "Python's API: a _DjangoImageField of a custom validator",
	"TestCharField.test_iterable_validators":                               "Python iterables of validator callables",
	"TestQuantizedValueForDecimal":                                         "Python's API: Decimal quantize",
	"TestNormalizedOutputValueDecimalField":                                "Python's API: to_representation of a Decimal; decimal_drf_test.go pins normalize_output",
	"TestRoundingDecimalField":                                             "Python's API: to_representation of a Decimal; decimal_drf_test.go pins rounding and its setup error",
	"TestNoOutputFormatDateTimeField":                                      "a naive datetime under USE_TZ, which no validated or stored time is; drf_settings.py pins format=None",
	"TestDefaultTZDateTimeField":                                           "Python's API: default_timezone() and timezone.activate (no time zone is activated per request); drf_settings.py pins TIME_ZONE",
	"TestCustomTimezoneForDateTimeField":                                   "Python's API: to_representation under timezone.override; datetime_drf_test.go pins default_timezone with format=",
	"TestNaiveDayLightSavingTimeTimeZoneDateTimeField":                     "Python's API: a mock tzinfo and a patched datetime_ambiguous; datetime_drf_test.go pins DST gaps and overlaps",
	"TestChoiceField.test_allow_null":                                      "Python's API: Field.get_value",
	"TestChoiceFieldWithListChoices":                                       "Python's API: choices as a flat list (Choices takes values and labels)",
	"TestMultipleChoiceField.test_valid_inputs_is_json_serializable":       "Python's API: json.dumps",
	"TestMultipleChoiceField.test_output_is_json_serializable":             "Python's API: json.dumps",
	"MockFile":                              "a test helper, not a test",
	"PassImageValidation":                   "a test helper, not a test",
	"FailImageValidation":                   "a test helper, not a test",
	"TestListField.test_no_source_on_child": "Python's API: source= on a child",
	"TestListField.test_collection_types_are_invalid_input": "a CharField child of a dict input, as test_invalid_inputs's {'one': 'two'}",
	"TestListField.test_constructor_misuse_raises":          "Python's API: positional arguments",
	"TestListFieldWithDjangoValidationErrors":               "a PrimaryKeyRelatedField child, which the relations' tests cover",
	"TestDictField.test_no_source_on_child":                 "Python's API: source= on a child",
	"TestHStoreField.test_child_is_charfield":               "Python's API: child= (a map[string]*string is the HStoreField, a map of another child a DictField)",
	"TestHStoreField.test_no_source_on_child":               "Python's API: source= on a child",
	"TestJSONField.test_invalid_inputs":                     "a set and float('inf'), which no JSON body carries",
	"MockRequest":                                           "a test helper, not a test",
	"TestSerializerMethodField":                             "Python's API: method names (Computed takes a function)",
	"TestModelField":                                        "Python's API: ModelField",
	"TestValidationErrorCode":                               "Python's API: a Django ValidationError's code and params, which no response shows (DRF's errors render their messages alone)",
	"TestLabel":                                             "ported in serializer_test.go (TestDescribe: a field's label)",
}

// drfFieldsTestClasses are the classes of DRF 3.18's tests/test_fields.py,
// in its order.
var drfFieldsTestClasses = strings.Fields(`TestIsSimpleCallable TestEmpty TestSource TestReadOnly TestWriteOnly
	TestInitial TestInitialWithCallable TestLabel TestInvalidErrorKey TestBooleanHTMLInput TestHTMLInput
	TestCreateOnlyDefault Test5087Regression TestTyping FieldValues TestBooleanField TestNullableBooleanField TestCharField
	TestEmailField TestRegexField TestiCompiledRegexField TestSlugField TestURLField TestUUIDField
	TestIPAddressField TestIPv4AddressField TestIPv6AddressField TestFilePathField TestIntegerField
	TestMinMaxIntegerField TestBigIntegerField TestMinMaxBigIntegerField TestCoercionBigIntegerField
	TestFloatField TestMinMaxFloatField TestFloatFieldOverFlowError TestDecimalField TestAllowNullDecimalField
	TestAllowNullNoStringCoercionDecimalField TestMinMaxDecimalField TestAllowEmptyStrDecimalFieldWithValidators
	TestNoMaxDigitsDecimalField TestNoStringCoercionDecimalField TestLocalizedDecimalField
	TestQuantizedValueForDecimal TestNormalizedOutputValueDecimalField TestNoDecimalPlaces
	TestRoundingDecimalField TestDateField TestCustomInputFormatDateField TestCustomOutputFormatDateField
	TestNoOutputFormatDateField TestDateTimeField TestCustomInputFormatDateTimeField
	TestCustomOutputFormatDateTimeField TestNoOutputFormatDateTimeField TestNaiveDateTimeField
	TestTZWithDateTimeField TestDefaultTZDateTimeField TestCustomTimezoneForDateTimeField
	TestNaiveDayLightSavingTimeTimeZoneDateTimeField TestTimeField TestCustomInputFormatTimeField
	TestCustomOutputFormatTimeField TestNoOutputFormatTimeField TestMinMaxDurationField TestDurationField
	TestNoOutputFormatDurationField TestISOOutputFormatDurationField TestChoiceField TestChoiceFieldWithType
	TestChoiceFieldWithListChoices TestChoiceFieldWithGroupedChoices TestChoiceFieldWithMixedChoices
	TestMultipleChoiceField TestEmptyMultipleChoiceField MockFile TestFileField TestFieldFieldWithName
	PassImageValidation FailImageValidation TestInvalidImageField TestValidImageField TestListField
	TestNestedListField TestListFieldWithDjangoValidationErrors TestEmptyListField TestListFieldLengthLimit
	TestUnvalidatedListField TestDictField TestNestedDictField TestDictFieldWithNullChild
	TestUnvalidatedDictField TestHStoreField TestJSONField TestBinaryJSONField MockRequest
	TestFileFieldContext TestFilePathFieldRequired TestSerializerMethodField TestModelField
	TestValidationErrorCode`)

// drfFieldsOtherPorted are the classes ported outside drfFieldsClasses:
// FieldValues (drfFieldValues and TestDRFFields) and those of
// TestDRFFieldsMethods, TestDRFFieldsEmpty, TestDRFFieldsFiles and
// TestDRFFieldsOptions; TestLocalizedDecimalField is
// TestDRFLocalizedDecimalField; TestInitial is framework/browsable's
// TestInitialFormsAsDRF too (the forms an unbound serializer fills).
var drfFieldsOtherPorted = []string{"FieldValues", "TestEmpty", "TestReadOnly", "TestWriteOnly", "TestBooleanHTMLInput", "TestHTMLInput",
	"TestFileField", "TestFieldFieldWithName", "TestInvalidImageField", "TestValidImageField", "TestFileFieldContext",
	"TestCreateOnlyDefault", "TestCoercionBigIntegerField", "TestFilePathFieldRequired", "TestInitial",
	"TestLocalizedDecimalField"}

// TestDRFFieldsAccounted: every class of DRF's test_fields.py is ported,
// or listed as not portable with its reason.
func TestDRFFieldsAccounted(t *testing.T) {
	ported := map[string]bool{}
	for _, c := range drfFieldsClasses {
		ported[c.class] = true
	}
	for _, c := range drfFieldsOtherPorted {
		ported[c] = true
	}
	if len(drfFieldsTestClasses) != 102 {
		t.Errorf("%d classes; DRF 3.18's test_fields.py has 102", len(drfFieldsTestClasses))
	}
	for _, c := range drfFieldsTestClasses {
		_, notPortable := drfFieldsNotPortable[c]
		if ported[c] == notPortable {
			t.Errorf("%s: ported %v, listed as not portable %v", c, ported[c], notPortable)
		}
	}
}

// TestDRFFields runs the ported FieldValues classes at both levels.
func TestDRFFields(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) { drfFields(t, compatibility) })
	}
}

func drfFields(t *testing.T, level framework.Compatibility) {
	passed, listed := 0, 0
	for _, c := range drfFieldsClasses {
		t.Run(c.class, func(t *testing.T) {
			validate := func(any, *serializers.Context) (string, error) { return "", nil }
			if c.field != nil {
				validate = c.field(t)
			}
			var render edgeRenderer
			if c.out != nil {
				render = c.out(t)
			}
			for _, m := range []struct {
				method string
				cases  [][2]string
				wrap   string
			}{{"test_valid_inputs", c.valid, "value"}, {"test_invalid_inputs", c.invalid, "errors"}, {"test_outputs", c.outputs, "value"}} {
				t.Run(m.method, func(t *testing.T) {
					for _, item := range m.cases {
						key := c.class + "." + m.method + " " + item[0]
						if len(key) > 100 {
							key = key[:100] + "..."
						}
						data, ctx := edgeInput(t, "json", `{"f": `+item[0]+`}`, level)
						if c.formats != nil {
							ctx = formatsContext(t, *c.formats, level)
						}
						got, err := "", error(nil)
						if m.method == "test_outputs" {
							got, err = render(item[0], ctx)
						} else {
							got, err = validate(data, ctx)
						}
						if err != nil {
							t.Fatalf("%s: %v", key, err)
						}
						want := `{"` + m.wrap + `":` + item[1] + `}`
						if old, ok := drfFields314[key]; ok && level == framework.DRF314 {
							want = old
						}
						same := sameJSON(t, []byte(got), []byte(want))
						switch why, differs := drfFieldsDiffer[key]; {
						case differs && same:
							t.Errorf("%s passes, but is listed as a difference (%s)", key, why)
						case differs:
							listed++
						case same:
							passed++
						default:
							t.Errorf("%s:\n got %s\nwant %s", key, got, want)
						}
					}
				})
			}
		})
	}
	t.Logf("%v: %d items pass, %d are listed differences", level, passed, listed)
}

// TestDRFFieldsMethods: the methods of DRF's classes beyond FieldValues,
// each named as DRF names it: CharField's whitespace, null bytes and
// surrogates, a blank choice, a null or empty dictionary, a checkbox and
// a multiple choice missing from a form, a list in a form.
func TestDRFFieldsMethods(t *testing.T) {
	type check struct {
		name, mode, input, want string
		validate                edgeValidator
	}
	blankChoice := edgeCase[drfBlankChoice](t, serializers.Choices("f", choices("poor", "medium", "good")))
	multiple := edgeCase[edgeMultiple](t, serializers.Choices("f", choices("a", "b")))
	for _, c := range []check{
		{"TestCharField.test_trim_whitespace_default", "json", `{"f": " abc "}`, `{"value": "abc"}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_trim_whitespace_disabled", "json", `{"f": " abc "}`, `{"value": " abc "}`, edgeCase[drfNoTrim](t)},
		{"TestCharField.test_disallow_blank_with_trim_whitespace", "json", `{"f": "   "}`, `{"errors": ["This field may not be blank."]}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_null_bytes 1", "json", `{"f": "\u0000"}`, `{"errors": ["Null characters are not allowed."]}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_null_bytes 2", "json", `{"f": "foo\u0000"}`, `{"errors": ["Null characters are not allowed."]}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_null_bytes 3", "json", `{"f": "\u0000foo"}`, `{"errors": ["Null characters are not allowed."]}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_null_bytes 4", "json", `{"f": "foo\u0000foo"}`, `{"errors": ["Null characters are not allowed."]}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_surrogate_characters D800", "json", `{"f": "\ud800"}`, `{"errors": ["Surrogate characters are not allowed: U+D800."]}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_surrogate_characters DFFF", "json", `{"f": "\udfff"}`, `{"errors": ["Surrogate characters are not allowed: U+DFFF."]}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_surrogate_characters D7FF", "json", `{"f": "\ud7ff"}`, `{"value": "\ud7ff"}`, edgeCase[edgeChar](t)},
		{"TestCharField.test_surrogate_characters E000", "json", `{"f": "\ue000"}`, `{"value": "\ue000"}`, edgeCase[edgeChar](t)},
		{"TestBooleanField.test_disallow_unhashable_collection_types []", "json", `{"f": []}`, `{"errors": ["Must be a valid boolean."]}`, edgeCase[edgeBool](t)},
		{"TestBooleanField.test_disallow_unhashable_collection_types {}", "json", `{"f": {}}`, `{"errors": ["Must be a valid boolean."]}`, edgeCase[edgeBool](t)},
		{"TestChoiceField.test_allow_blank", "json", `{"f": ""}`, `{"value": ""}`, blankChoice},
		{"TestDictField.test_allow_null", "json", `{"f": null}`, `{"value": null}`, edgeCase[drfNullDict](t)},
		{"TestHStoreField.test_allow_null", "json", `{"f": null}`, `{"value": null}`, edgeCase[drfNullHStore](t)},
		{"TestDictField.test_allow_empty_disallowed", "json", `{"f": {}}`, `{"errors": ["This dictionary may not be empty."]}`, edgeCase[drfNotEmptyDict](t)},
		{"TestBooleanHTMLInput.test_empty_html_checkbox", "form", ``, `{"value": false}`, edgeCase[edgeBool](t)},
		{"TestMultipleChoiceField.test_against_partial_and_full_updates", "form", ``, `{"value": []}`, multiple},
		{"TestHTMLInput.test_querydict_list_input", "form", `f=1&f=3`, `{"value": [1, 3]}`, edgeCase[drfIntList](t)},
		{"TestJSONField.test_html_input_as_json_string", "form", `f=%7B%22a%22%3A1%7D`, `{"value": {"a": 1}}`, edgeCase[drfJSON](t)},
		{"TestHTMLInput.test_querydict_list_input_only_one_input", "form", `f=1&`, `{"value": [1]}`, edgeCase[drfIntList](t)},
	} {
		data, ctx := edgeInput(t, c.mode, c.input, framework.DRF318)
		got, err := c.validate(data, ctx)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !sameJSON(t, []byte(got), []byte(c.want)) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// The fields of TestEmpty, TestHTMLInput, TestReadOnly and TestWriteOnly.
type (
	drfRequiredInt struct {
		F int64 `json:"f" drf:"required"`
	}
	drfNullInt struct {
		F *int64 `json:"f"`
	}
	drfNullChar struct {
		F *string `json:"f"`
	}
	drfNullDate struct {
		F *models.Date `json:"f"`
	}
	drfNullBlankChar struct {
		F *string `json:"f" drf:"allow_blank"`
	}
	drfReadOnly struct {
		ReadOnly int `json:"read_only" drf:"read_only"`
		Writable int `json:"writable"`
	}
	drfWriteOnly struct {
		WriteOnly int `json:"write_only" drf:"write_only"`
		Readable  int `json:"readable"`
	}
)

// drfKept is what an item holds when the input leaves its field out:
// Validate sets only the fields present, so a value set beforehand stays.
func drfKept[T any](t *testing.T, start T, mode, input string, level framework.Compatibility) (T, string) {
	t.Helper()
	s, err := serializers.New[T]()
	if err != nil {
		t.Fatal(err)
	}
	data, ctx := edgeInput(t, mode, input, level)
	obj := start
	if err := s.Validate(data, &obj, false, ctx); err != nil {
		return obj, errorBody(err)
	}
	return obj, ""
}

// TestDRFFieldsEmpty: TestEmpty (required, allow_null, allow_blank),
// TestHTMLInput and TestBooleanHTMLInput (a form's blank and missing
// values), TestReadOnly and TestWriteOnly.
func TestDRFFieldsEmpty(t *testing.T) {
	str := func(s string) *string { return &s }
	n := int64(7)
	seven := &n
	for _, level := range []framework.Compatibility{framework.DRF314, framework.DRF318} {
		if _, body := drfKept(t, drfRequiredInt{}, "json", `{}`, level); body != `400 {"f":["This field is required."]}` {
			t.Errorf("TestEmpty.test_required: %s", body)
		}
		if got, body := drfKept(t, edgeInt{F: 7}, "json", `{}`, level); body != "" || got.F != 7 {
			t.Errorf("TestEmpty.test_not_required: %v %s", got, body)
		}
		if _, body := drfKept(t, edgeInt{}, "json", `{"f": null}`, level); body != `400 {"f":["This field may not be null."]}` {
			t.Errorf("TestEmpty.test_disallow_null: %s", body)
		}
		if got, body := drfKept(t, drfNullInt{F: seven}, "json", `{"f": null}`, level); body != "" || got.F != nil {
			t.Errorf("TestEmpty.test_allow_null: %v %s", got, body)
		}
		if _, body := drfKept(t, edgeChar{}, "json", `{"f": ""}`, level); body != `400 {"f":["This field may not be blank."]}` {
			t.Errorf("TestEmpty.test_disallow_blank: %s", body)
		}
		if got, body := drfKept(t, drfBlankChoice{F: "x"}, "json", `{"f": ""}`, level); body != "" || got.F != "" {
			t.Errorf("TestEmpty.test_allow_blank: %v %s", got, body)
		}
		if got, body := drfKept(t, drfBlankChoice{F: "x"}, "form", `f=`, level); body != "" || got.F != "" {
			t.Errorf("TestHTMLInput.test_empty_html_charfield_without_default(_not_required): %v %s", got, body)
		}
		id := uuid.MustParse("825d7aeb-05a9-45b5-a5b7-05df87923cda")
		if got, body := drfKept(t, drfUUID{F: id}, "form", `f=`, level); body != "" || got.F != id {
			t.Errorf("TestHTMLInput.test_empty_html_uuidfield_with_optional: %v %s", got, body)
		}
		if got, body := drfKept(t, drfNullChar{F: str("x")}, "form", `f=`, level); body != "" || got.F != nil {
			t.Errorf("TestHTMLInput.test_empty_html_charfield_allow_null: %v %s", got, body)
		}
		if got, body := drfKept(t, drfNullDate{F: &models.Date{Year: 2001, Month: 1, Day: 1}}, "form", `f=`, level); body != "" || got.F != nil {
			t.Errorf("TestHTMLInput.test_empty_html_datefield_allow_null: %v %s", got, body)
		}
		if got, body := drfKept(t, drfNullBlankChar{F: str("x")}, "form", `f=`, level); body != "" || got.F == nil || *got.F != "" {
			t.Errorf("TestHTMLInput.test_empty_html_charfield_allow_null_allow_blank: %v %s", got, body)
		}
		if got, body := drfKept(t, edgeChar{F: "x"}, "form", ``, level); body != "" || got.F != "x" {
			t.Errorf("TestHTMLInput.test_empty_html_charfield_required_false: %v %s", got, body)
		}
		if got, body := drfKept(t, edgeBool{F: true}, "form", ``, level); body != "" || got.F {
			t.Errorf("TestBooleanHTMLInput.test_empty_html_checkbox_not_required: %v %s", got, body)
		}
		// DRF 3.14 has no test_empty_html_checkbox_allow_null: its
		// checkbox is False (drf_field_edges.py).
		got, body := drfKept(t, edgeNullBool{F: new(bool)}, "form", ``, level)
		if want := level == framework.DRF314; body != "" || (got.F == nil) == want {
			t.Errorf("%v: TestBooleanHTMLInput.test_empty_html_checkbox_allow_null: %v %s", level, got.F, body)
		}
		if got, body := drfKept(t, drfReadOnly{ReadOnly: 1}, "json", `{"read_only": 123, "writable": 456}`, level); body != "" ||
			got != (drfReadOnly{ReadOnly: 1, Writable: 456}) {
			t.Errorf("TestReadOnly.test_validate_read_only: %v %s", got, body)
		}
		if got, body := drfKept(t, drfWriteOnly{}, "json", `{"write_only": 123, "readable": 456}`, level); body != "" ||
			got != (drfWriteOnly{WriteOnly: 123, Readable: 456}) {
			t.Errorf("TestWriteOnly.test_validate_write_only: %v %s", got, body)
		}
	}
	ro := serializers.MustNew[drfReadOnly]()
	if out, err := ro.Data(&drfReadOnly{ReadOnly: 123, Writable: 456}, nil); err != nil || string(out) != `{"read_only":123,"writable":456}` {
		t.Errorf("TestReadOnly.test_serialize_read_only: %s %v", out, err)
	}
	wo := serializers.MustNew[drfWriteOnly]()
	if out, err := wo.Data(&drfWriteOnly{WriteOnly: 123, Readable: 456}, nil); err != nil || string(out) != `{"readable":456}` {
		t.Errorf("TestWriteOnly.test_serialize_write_only: %s %v", out, err)
	}
}

// The fields of DRF's file classes: TestFileField's FileField(max_length=10),
// TestFieldFieldWithName's use_url=False, TestValidImageField's ImageField,
// of a storage whose URLs are "/" and the name.
type (
	drfFile struct {
		F files.File `json:"f" drf:"max_length=10"`
	}
	drfFileName struct {
		F files.File `json:"f" drf:"use_url=false"`
	}
	drfImage struct {
		F files.File `json:"f" drf:"image"`
	}
	drfFileModel struct {
		ID int64      `db:"id" json:"-"`
		F  files.File `db:"f" json:"f" model:"max_length=10"`
	}
)

func (drfFileModel) Meta() models.Meta {
	return models.Meta{App: "drf", Name: "Upload", Storage: map[string]files.Storage{"f": files.FileSystemStorage{BaseURL: "/"}}}
}

// drfUploaded validates a multipart body of one part "f" (a file of
// filename and content, or, with filename "-", text) into a T, and
// answers {"value": [name, size]} or {"errors": [...]}.
func drfUploaded[T any](t *testing.T, filename string, content []byte) string {
	t.Helper()
	s, err := serializers.New[T]()
	if err != nil {
		t.Fatal(err)
	}
	var body, ct string
	if filename == "-" {
		body, ct = multipartBody(t, map[string]string{"f": string(content)}, nil)
	} else {
		body, ct = multipartBody(t, nil, map[string][]byte{"f=" + filename: content})
	}
	hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	hr.Header.Set("Content-Type", strings.TrimPrefix(ct, "Content-Type: "))
	r := request.New(hr, request.Config{Parsers: []request.Parser{framework.MultiPartParser{}}})
	data, err := r.Data()
	if err != nil {
		t.Fatal(err)
	}
	var obj T
	if err := s.Validate(data, &obj, false, &serializers.Context{Request: r}); err != nil {
		var detail map[string]json.RawMessage
		if err := json.Unmarshal([]byte(strings.TrimPrefix(errorBody(err), "400 ")), &detail); err != nil {
			t.Fatalf("%s: %v", errorBody(err), err)
		}
		return `{"errors":` + string(detail["f"]) + `}`
	}
	f := reflect.ValueOf(obj).Field(0).Interface().(files.File)
	if f.Upload == nil {
		return `{"value": null}`
	}
	return fmt.Sprintf(`{"value": [%q, %d]}`, f.Upload.Filename, f.Upload.Size)
}

// TestDRFFieldsFiles: TestFileField, TestFieldFieldWithName,
// TestFileFieldContext, TestInvalidImageField and TestValidImageField,
// whose MockFile is an upload of a multipart body here: a file (name and
// size), text, an empty file, a name too long; an image Pillow reads
// and one it does not. The outputs are the storage's URL, absolute with
// a request in the context (TestFileFieldContext), or the name.
// testdata/drf_files.py pins more of these answers against DRF.
func TestDRFFieldsFiles(t *testing.T) {
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, got, want string }{
		{"TestFileField.test_valid_inputs example", drfUploaded[drfFile](t, "example", make([]byte, 10)), `{"value": ["example", 10]}`},
		{"TestFileField.test_invalid_inputs 'invalid'", drfUploaded[drfFile](t, "-", []byte("invalid")),
			`{"errors": ["The submitted data was not a file. Check the encoding type on the form."]}`},
		{"TestFileField.test_invalid_inputs empty", drfUploaded[drfFile](t, "example.txt", nil), `{"errors": ["The submitted file is empty."]}`},
		{"TestFileField.test_invalid_inputs long name", drfUploaded[drfFile](t, strings.Repeat("x", 100), make([]byte, 10)),
			`{"errors": ["Ensure this filename has at most 10 characters (it has 100)."]}`},
		{"TestInvalidImageField.test_invalid_inputs badimage.png", drfUploaded[drfImage](t, "badimage.png", []byte("0123456789")),
			`{"errors": ["Upload a valid image. The file you uploaded was either not an image or a corrupted image."]}`},
		{"TestValidImageField.test_valid_inputs example.png", drfUploaded[drfImage](t, "example.png", img.Bytes()),
			fmt.Sprintf(`{"value": ["example.png", %d]}`, img.Len())},
	} {
		if !sameJSON(t, []byte(c.got), []byte(c.want)) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, c.got, c.want)
		}
	}
	hr := httptest.NewRequest(http.MethodGet, "http://example.com/", nil)
	ctx := &serializers.Context{Request: request.New(hr, request.Config{})}
	stored := drfFileModel{F: files.File{Name: "example.txt"}}
	for _, c := range []struct {
		name string
		out  func() (json.RawMessage, error)
		want string
	}{
		{"TestFileField.test_outputs /example.txt", func() (json.RawMessage, error) {
			return serializers.MustNew[drfFileModel]().Data(&stored, nil)
		}, `{"f":"/example.txt"}`},
		{"TestFileField.test_outputs ''", func() (json.RawMessage, error) {
			return serializers.MustNew[drfFileModel]().Data(&drfFileModel{}, nil)
		}, `{"f":null}`},
		{"TestFileFieldContext.test_fully_qualified_when_request_in_context", func() (json.RawMessage, error) {
			return serializers.MustNew[drfFileModel]().Data(&stored, ctx)
		}, `{"f":"http://example.com/example.txt"}`},
		{"TestFieldFieldWithName.test_outputs", func() (json.RawMessage, error) {
			return serializers.MustNew[drfFileName]().Data(&drfFileName{F: files.File{Name: "example.txt"}}, ctx)
		}, `{"f":"example.txt"}`},
	} {
		if got, err := c.out(); err != nil || string(got) != c.want {
			t.Errorf("%s: %s %v, want %s", c.name, got, err, c.want)
		}
	}
}

// TestDRFFieldsOptions: the items of DRF's classes whose options
// drf_field_options.py pins against DRF (TestFieldOptionsAsDRF), each as
// DRF asserts it: default= (TestEmpty, TestHTMLInput,
// TestBooleanHTMLInput), SlugField(allow_unicode=True), UUIDField's
// formats, CreateOnlyDefault, BigIntegerField(coerce_to_string=True),
// DurationField's format and DURATION_FORMAT.
func TestDRFFieldsOptions(t *testing.T) {
	check := func(name, got, want string) {
		t.Helper()
		if !sameJSON(t, []byte(got), []byte(want)) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	run := func(v edgeValidator, mode, input string) string {
		t.Helper()
		data, ctx := edgeInput(t, mode, input, framework.DRF318)
		got, err := v(data, ctx)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	check("TestEmpty.test_default", run(edgeCase[optDefaultInt](t), "json", `{}`), `{"value": 123}`)
	check("TestHTMLInput.test_empty_html_charfield_with_default", run(edgeCase[optDefaultChar](t), "form", ``), `{"value": "happy"}`)
	check("TestHTMLInput.test_empty_html_integerfield", run(edgeCase[optDefaultInt](t), "form", `f=`), `{"value": 123}`)
	check("TestBooleanHTMLInput.test_empty_html_checkbox_allow_null_with_default", run(edgeCase[optDefaultNullBool](t), "form", ``),
		`{"value": true}`)
	check("TestSlugField.test_allow_unicode_true", run(edgeCase[optSlugUnicode](t), "json", `{"f": "slug-99-\u0420"}`),
		`{"value": "slug-99-\u0420"}`)
	zero := "00000000-0000-0000-0000-000000000000"
	for _, c := range []struct {
		v         edgeValidator
		formatted string
	}{
		{edgeCase[optUUIDInt](t), `0`}, {edgeCase[optUUIDVerbose](t), `"` + zero + `"`},
		{edgeCase[optUUIDURN](t), `"urn:uuid:` + zero + `"`}, {edgeCase[optUUIDHex](t), `"` + strings.Repeat("0", 32) + `"`},
	} {
		// to_representation(UUID(int=0)) and to_internal_value of it.
		check("TestUUIDField.test_formats "+c.formatted, run(c.v, "json", `{"f": "`+zero+`"}`), `{"value": `+c.formatted+`}`)
		check("TestUUIDField.test_formats "+c.formatted+" read", run(c.v, "json", `{"f": `+c.formatted+`}`), `{"value": `+c.formatted+`}`)
	}
	out, err := serializers.MustNew[optBigIntString]().Data(&optBigIntString{F: 1}, nil)
	check("TestCoercionBigIntegerField.test_force_coerce_to_string", string(out), `{"f": "1"}`)
	if err != nil {
		t.Fatal(err)
	}
	day := 3*24*time.Hour + 8*time.Hour + 32*time.Minute + time.Second + 123*time.Microsecond
	for _, c := range []struct {
		name string
		out  func() (json.RawMessage, error)
		want string
	}{
		{"TestDurationField.test_outputs", func() (json.RawMessage, error) {
			return serializers.MustNew[edgeDuration]().Data(&edgeDuration{F: day}, nil)
		}, `{"f":"3 08:32:01.000123"}`},
		{"TestNoOutputFormatDurationField.test_outputs", func() (json.RawMessage, error) {
			return serializers.MustNew[optDurationNone]().Data(&optDurationNone{F: 24 * time.Hour}, nil)
		}, `{"f":"86400.0"}`},
		{"TestISOOutputFormatDurationField.test_outputs", func() (json.RawMessage, error) {
			return serializers.MustNew[optDurationISO]().Data(&optDurationISO{F: day}, nil)
		}, `{"f":"P3DT08H32M01.000123S"}`},
	} {
		if got, err := c.out(); err != nil || string(got) != c.want {
			t.Errorf("%s: %s %v, want %s", c.name, got, err, c.want)
		}
	}
	for _, in := range [][2]string{{`13`, `"P0DT00H00M13S"`}, {`P3DT08H32M01.000123S`, `"P3DT08H32M01.000123S"`},
		{`PT8H1M`, `"P0DT08H01M00S"`}} {
		check("TestISOOutputFormatDurationField.test_valid_inputs "+in[0], run(edgeCase[optDurationISO](t), "json", `{"f": "`+in[0]+`"}`),
			`{"value": `+in[1]+`}`)
	}
	type durationUnknown struct {
		F time.Duration `json:"f" drf:"format=unknown"`
	}
	const unknown = "Unknown duration format provided, got 'unknown' while expecting 'django', 'iso-8601' or `None`."
	if _, err := serializers.New[durationUnknown](); err == nil || !strings.Contains(err.Error(), unknown) {
		t.Errorf("TestDurationField.test_invalid_format: %v", err)
	}
	if _, err := formats.Compile(framework.Formats{DurationFormat: "unknown"}); err == nil || !strings.Contains(err.Error(), unknown) {
		t.Errorf("TestDurationField.test_invalid_format_in_config: %v", err)
	}
	type published struct {
		Published string `json:"-"`
		Text      string `json:"text"`
	}
	s := serializers.MustNew[published](serializers.CreateOnlyHiddenField("Published",
		func(*serializers.Context) (string, error) { return "2001-01-01", nil }))
	var created published
	if err := s.ValidateNew(map[string]any{"text": "example"}, &created, nil); err != nil || created != (published{"2001-01-01", "example"}) {
		t.Errorf("TestCreateOnlyDefault.test_create_only_default_is_provided: %v %v", created, err)
	}
	updated := published{Text: "example"}
	if err := s.Validate(map[string]any{"text": "example"}, &updated, false, nil); err != nil || updated != (published{"", "example"}) {
		t.Errorf("TestCreateOnlyDefault.test_create_only_default_is_not_provided_on_update: %v %v", updated, err)
	}
	// A FilePathField not required has Django's blank choice, and an
	// input without it leaves it as it is (DRF's SkipField).
	fp := serializers.MustNew[fpFiles]().Description().Fields[0]
	if fp.Required || len(fp.Choices) == 0 || fp.Choices[0] != (framework.Choice{Value: "", Label: "---------"}) {
		t.Errorf("TestFilePathFieldRequired.test_required_passed_to_both_django_file_path_field_and_base: %+v", fp)
	}
	if got, body := drfKept(t, fpFiles{F: "kept"}, "json", `{}`, framework.DRF318); body != "" || got.F != "kept" {
		t.Errorf("TestFilePathFieldRequired.test_required_passed_to_both_django_file_path_field_and_base: %v %s", got, body)
	}
	// An unbound serializer's data: the initial of initial=, else the
	// field's own (TestInitialFormsAsDRF pins the forms built of them).
	type initial struct {
		InitialField int64 `json:"initial_field" drf:"initial=123"`
		BlankField   int64 `json:"blank_field"`
	}
	fields := serializers.MustNew[initial]().Description().Fields
	if fields[0].Initial != "123" || fields[1].Initial != "" {
		t.Errorf("TestInitial.test_initial: %q %q", fields[0].Initial, fields[1].Initial)
	}
}
