package serializers

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unsafe"

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

// quantize writes d with places digits after the point, rounded half to
// even, as '{:f}'.format(d.quantize(...)) does.
func (d decimalText) quantize(places int) (string, bool) {
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
		switch c := rem.Lsh(&rem, 1).Cmp(div); {
		case c > 0, c == 0 && coef.Bit(0) == 1:
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
// decimal_places. It returns the number's text, without exponent or
// underscores, as a JSON string.
func (f *field) checkDecimal(raw any) ([]byte, string) {
	if s, ok := raw.(string); ok && len(s) > maxNumberLength {
		return nil, msgTooLarge
	}
	s, ok := pythonStr(raw)
	if !ok {
		return nil, msgNumber
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
	if s, ok = d.quantize(places); !ok {
		return nil, msgNumber
	}
	return appendString(nil, s), ""
}

// decimalOutput is a decimal field's value with decimal_places digits
// after the point, as DRF's DecimalField writes it (a string); false when
// its text is not a number, which is then written as its type writes it.
func (f *field) decimalOutput(obj unsafe.Pointer) (string, bool) {
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
	d, ok := parseDecimal(text)
	if !ok {
		return "", false
	}
	return d.quantize(f.decimalPlaces)
}
