package serializers

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-drf/drf/framework/compat"
	fmts "github.com/go-drf/drf/internal/formats"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/structs"
)

// DRF's DecimalField messages.
const (
	msgMaxDigits = "Ensure that there are no more than %d digits in total."
	msgMaxPlaces = "Ensure that there are no more than %d decimal places."
	msgMaxWhole  = "Ensure that there are no more than %d digits before the decimal point."
)

// maxShift bounds the powers of ten a quantization multiplies or divides
// by, so that "1e999999999" is refused rather than computed.
const maxShift = 1000

// decimalText is a number as Python's decimal.Decimal reads it: its sign,
// the digits of its coefficient (without leading zeros) and its exponent.
type decimalText struct {
	neg    bool
	digits string
	exp    int
}

// parseDecimal reads s as decimal.Decimal(s) does a finite number
// (pycompat.Decimal).
func parseDecimal(s string) (decimalText, bool) {
	num, ok := pycompat.Decimal(s)
	if !ok {
		return decimalText{}, false
	}
	mant, expText, _ := strings.Cut(num, "e")
	d := decimalText{neg: strings.HasPrefix(mant, "-")}
	var err error
	if d.exp, err = strconv.Atoi(expText); err != nil {
		return decimalText{}, false
	}
	d.digits = strings.TrimLeft(strings.TrimPrefix(mant, "-"), "0")
	if d.digits == "" {
		d.digits = "0"
	}
	return d, true
}

// precision is DRF's validate_precision count: the digits in total,
// before the point and after it.
func (d decimalText) precision() (total, whole, places int) {
	switch n := len(d.digits); {
	case d.exp >= 0:
		return n + d.exp, n + d.exp, 0
	case n > -d.exp:
		return n, n + d.exp, -d.exp
	}
	return -d.exp, 0, -d.exp
}

// roundings are Python's decimal rounding modes, as DRF lists them.
var roundings = []string{"ROUND_UP", "ROUND_DOWN", "ROUND_CEILING", "ROUND_FLOOR",
	"ROUND_HALF_UP", "ROUND_HALF_DOWN", "ROUND_HALF_EVEN", "ROUND_05UP"}

// rat is d's value.
func (d decimalText) rat() *big.Rat {
	r, _ := new(big.Rat).SetString(d.digits + "e" + strconv.Itoa(d.exp))
	if d.neg {
		r.Neg(r)
	}
	return r
}

// roundUp reports whether a coefficient cut to coef, with remainder rem
// of div, is rounded away from zero under Python's rounding mode ("" is
// ROUND_HALF_EVEN, the default context's).
func roundUp(mode string, neg bool, coef, rem, div *big.Int) bool {
	if rem.Sign() == 0 {
		return false
	}
	half := new(big.Int).Lsh(rem, 1).Cmp(div)
	switch mode {
	case "ROUND_UP":
		return true
	case "ROUND_DOWN":
		return false
	case "ROUND_CEILING":
		return !neg
	case "ROUND_FLOOR":
		return neg
	case "ROUND_HALF_UP":
		return half >= 0
	case "ROUND_HALF_DOWN":
		return half > 0
	case "ROUND_05UP":
		last := new(big.Int).Mod(coef, big.NewInt(10)).Int64()
		return last == 0 || last == 5
	}
	return half > 0 || half == 0 && coef.Bit(0) == 1
}

// quantize writes d with places digits after the point, rounded half to
// even, as '{:f}'.format(d.quantize(...)) does.
func (d decimalText) quantize(places int) (string, bool) {
	return d.quantizeWith(places, "")
}

// quantizeWith is quantize under a rounding mode of roundings.
func (d decimalText) quantizeWith(places int, mode string) (string, bool) {
	coef, _ := new(big.Int).SetString(d.digits, 10)
	shift := d.exp + places
	if shift > maxShift || shift < -maxShift {
		return "", false
	}
	ten := big.NewInt(10)
	if shift >= 0 {
		coef.Mul(coef, new(big.Int).Exp(ten, big.NewInt(int64(shift)), nil))
	} else {
		div := new(big.Int).Exp(ten, big.NewInt(int64(-shift)), nil)
		var rem big.Int
		coef.QuoRem(coef, div, &rem)
		if roundUp(mode, d.neg, coef, &rem, div) {
			coef.Add(coef, big.NewInt(1))
		}
	}
	s := coef.String()
	if places > 0 {
		if len(s) <= places {
			s = strings.Repeat("0", places-len(s)+1) + s
		}
		s = s[:len(s)-places] + "." + s[len(s)-places:]
	}
	if d.neg {
		s = "-" + s
	}
	return s, true
}

// checkDecimal is DRF's DecimalField reading of raw: str() of it, a
// finite number, within max_digits and decimal_places, quantized to
// decimal_places. A localized field reads it in num's format first. It
// returns the number's text, without exponent or underscores, as a JSON
// string.
func (f *field) checkDecimal(raw any, num *fmts.Number) ([]byte, string) {
	s, ok := pythonStr(raw)
	if !ok {
		return nil, msgNumber
	}
	if s = pycompat.Strip(s); f.localize {
		s = num.Sanitize(s)
	}
	if utf8.RuneCountInString(s) > maxNumberLength {
		return nil, msgTooLarge
	}
	d, ok := parseDecimal(s)
	if !ok {
		return nil, msgNumber
	}
	total, whole, places := d.precision()
	switch {
	case f.maxDigits >= 0 && total > f.maxDigits:
		return nil, fmt.Sprintf(msgMaxDigits, f.maxDigits)
	case f.decimalPlaces >= 0 && places > f.decimalPlaces:
		return nil, fmt.Sprintf(msgMaxPlaces, f.decimalPlaces)
	case f.maxDigits >= 0 && f.decimalPlaces >= 0 && whole > f.maxDigits-f.decimalPlaces:
		return nil, fmt.Sprintf(msgMaxWhole, f.maxDigits-f.decimalPlaces)
	}
	// Quantized to decimal_places, else written out at its own places.
	places = f.decimalPlaces
	if places < 0 {
		places = max(-d.exp, 0)
	}
	if s, ok = d.quantizeWith(places, f.rounding); !ok {
		return nil, msgNumber
	}
	// DRF's MaxValueValidator and MinValueValidator, on the quantized value.
	if f.maxValue != nil || f.minValue != nil {
		q, _ := new(big.Rat).SetString(s)
		switch {
		case f.maxValue != nil && q.Cmp(f.maxValue.r) > 0:
			return nil, fmt.Sprintf(msgMaxValue, f.maxValue.text)
		case f.minValue != nil && q.Cmp(f.minValue.r) < 0:
			return nil, fmt.Sprintf(msgMinValue, f.minValue.text)
		}
	}
	return appendString(nil, s), ""
}

// customText is a Custom value's text: its JSON string (or JSON), else
// its MarshalText, else its Valuer's string or number; false on an error
// or a null.
func (f *field) customText(obj structs.Addr) (string, bool) {
	var text string
	jm, tm := f.sf.Marshalers(obj)
	switch {
	case jm != nil:
		js, err := jm.MarshalJSON()
		if err != nil {
			return "", false
		}
		if json.Unmarshal(js, &text) != nil {
			text = string(js)
		}
	case tm != nil:
		b, err := tm.MarshalText()
		if err != nil {
			return "", false
		}
		text = string(b)
	default:
		v, err := f.sf.Valuer(obj)
		if err != nil || v.Null {
			return "", false
		}
		switch v.Kind {
		case structs.String:
			text = v.S
		case structs.Int, structs.Float:
			text = v.Text()
		}
	}
	return text, true
}

// decimalOutput is a decimal field's value with decimal_places digits
// after the point (rounded by its rounding), as DRF's DecimalField writes
// it, without trailing zeros for normalize_output (from DRF 3.15: not at
// the 3.14 level); false when its text is not a number, which is then
// written as its type writes it.
func (f *field) decimalOutput(obj structs.Addr, level compat.Level) (string, bool) {
	text, ok := f.customText(obj)
	if !ok {
		return "", false
	}
	d, ok := parseDecimal(text)
	if !ok {
		return "", false
	}
	places := f.decimalPlaces
	if places < 0 {
		places = max(-d.exp, 0)
	}
	if text, ok = d.quantizeWith(places, f.rounding); ok && f.normalize && level != compat.DRF314 && strings.Contains(text, ".") {
		text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
	}
	return text, ok
}

// numberOf is the number format of c's request's language
// (formats.English outside a request).
func numberOf(c *Context) *fmts.Number {
	if c == nil || c.Request == nil {
		return fmts.English
	}
	return fmts.NumberFrom(c.Request.Context())
}
