package serializers_test

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework/serializers"
)

// The fields of testdata/drf_decimal.py, one Go type each.
type (
	decPlain struct {
		F decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1"`
	}
	decNumber struct {
		F decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,coerce_to_string=false"`
	}
	decNullNumber struct {
		F *decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,coerce_to_string=false"`
	}
	decMinMax struct {
		F decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,min_value=10.0,max_value=20.0"`
	}
	decNullMinMax struct {
		F *decimal.Decimal `json:"f" drf:"max_digits=3,decimal_places=1,min_value=0,max_value=10"`
	}
	decNoMaxDigits struct {
		F decimal.Decimal `json:"f" drf:"decimal_places=2,min_value=0,max_value=100"`
	}
	decNoPlaces struct {
		F decimal.Decimal `json:"f" drf:"max_digits=6"`
	}
	decRoundUp struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_UP"`
	}
	decRoundDown struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_DOWN"`
	}
	decRoundCeiling struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_CEILING"`
	}
	decRoundFloor struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_FLOOR"`
	}
	decRoundHalfUp struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_HALF_UP"`
	}
	decRoundHalfDown struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_HALF_DOWN"`
	}
	decRoundHalfEven struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_HALF_EVEN"`
	}
	decRound05Up struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=2,rounding=ROUND_05UP"`
	}
	decNormalize struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=3,normalize_output"`
	}
	decNormalizeNumber struct {
		F decimal.Decimal `json:"f" drf:"max_digits=4,decimal_places=3,normalize_output,coerce_to_string=false"`
	}
	decBadRounding struct {
		F decimal.Decimal `json:"f" drf:"max_digits=1,decimal_places=1,rounding=ROUND_UNKNOWN"`
	}
)

// decimalDiffer are the answers of drf_decimal.py the framework gives
// otherwise, each with why (docs/drf-differences.md, "A field holds what
// its Go type holds"); a listed answer that matches fails the test.
var decimalDiffer = map[string]string{
	`no_places "10.0"`:        "without decimal_places, a decimal renders its type's text: shopspring's drops trailing zeros",
	`no_places "20.0"`:        "without decimal_places, a decimal renders its type's text: shopspring's drops trailing zeros",
	`no_places stored 1.000`:  "without decimal_places, a decimal renders its type's text: shopspring's drops trailing zeros",
	`no_places stored 1.2350`: "without decimal_places, a decimal renders its type's text: shopspring's drops trailing zeros",
	`no_places stored 0.000`:  "without decimal_places, a decimal renders its type's text: shopspring's drops trailing zeros",
}

// TestDecimalOptionsAsDRF: a decimal's drf tag options are DRF's
// DecimalField's, as DRF 3.14 and 3.18 answer drf_decimal.py (DRF's
// TestMinMaxDecimalField, TestAllowEmptyStrDecimalFieldWithValidators,
// TestNoMaxDigitsDecimalField, TestNoStringCoercionDecimalField,
// TestAllowNullNoStringCoercionDecimalField,
// TestNormalizedOutputValueDecimalField, TestRoundingDecimalField and
// more inputs): coerce_to_string=false writes a number (DRF's
// JSONEncoder's float()), min_value and max_value are checked on the
// quantized value with DRF's messages, rounding rounds the output as
// Python's rounding modes, normalize_output drops trailing zeros at the
// 3.18 level (DRF 3.14 has no such option), and an unknown rounding is a
// setup error in DRF's words. Each answer is compared byte for byte;
// decimalDiffer lists those that differ.
func TestDecimalOptionsAsDRF(t *testing.T) {
	fields := map[string]optionCase{
		"plain":            newOptionCase[decPlain](t),
		"number":           newOptionCase[decNumber](t),
		"null_number":      newOptionCase[decNullNumber](t),
		"min_max":          newOptionCase[decMinMax](t),
		"null_min_max":     newOptionCase[decNullMinMax](t),
		"no_max_digits":    newOptionCase[decNoMaxDigits](t),
		"no_places":        newOptionCase[decNoPlaces](t),
		"round_up":         newOptionCase[decRoundUp](t),
		"round_down":       newOptionCase[decRoundDown](t),
		"round_ceiling":    newOptionCase[decRoundCeiling](t),
		"round_floor":      newOptionCase[decRoundFloor](t),
		"round_half_up":    newOptionCase[decRoundHalfUp](t),
		"round_half_down":  newOptionCase[decRoundHalfDown](t),
		"round_half_even":  newOptionCase[decRoundHalfEven](t),
		"round_05up":       newOptionCase[decRound05Up](t),
		"normalize":        newOptionCase[decNormalize](t),
		"normalize_number": newOptionCase[decNormalizeNumber](t),
	}
	checkOptionAnswers(t, "drf_decimal", fields, decimalDiffer, func(t *testing.T, raw json.RawMessage) {
		var extra struct {
			RoundingError string `json:"rounding_error"`
		}
		if err := json.Unmarshal(raw, &extra); err != nil {
			t.Fatal(err)
		}
		_, err := serializers.New[decBadRounding]()
		if want := "serializers: serializers_test.decBadRounding.F: " + extra.RoundingError; err == nil || err.Error() != want {
			t.Errorf("an unknown rounding: %v, want %s", err, want)
		}
	})
}
