package serializers

import (
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

func TestDecimalLikePython(t *testing.T) {
	for _, c := range []struct {
		in                 string
		places             int
		want               string
		total, whole, frac int
	}{
		{"12.5", 2, "12.50", 3, 2, 1},
		{"0012.50", 2, "12.50", 4, 2, 2},
		{"1.005", 2, "1.00", 4, 1, 3},
		{"1.015", 2, "1.02", 4, 1, 3},
		{"-0.125", 2, "-0.12", 3, 0, 3},
		{"0.001234", 3, "0.001", 6, 0, 6},
		{"1e3", 2, "1000.00", 4, 4, 0},
		{"2.5", 0, "2", 2, 1, 1},
		{"3.5", 0, "4", 2, 1, 1},
		{"+.5", 1, "0.5", 1, 0, 1},
		{"0", 2, "0.00", 1, 1, 0},
		{"1.50E-1", 3, "0.150", 3, 0, 3},
		{" 1_000 ", 0, "1000", 4, 4, 0},
	} {
		d, ok := parseDecimal(c.in)
		if !ok {
			t.Errorf("parseDecimal(%q) failed", c.in)
			continue
		}
		if got, _ := d.quantize(c.places); got != c.want {
			t.Errorf("quantize(%q, %d) = %q, want %q", c.in, c.places, got, c.want)
		}
		if total, whole, frac := d.precision(); total != c.total || whole != c.whole || frac != c.frac {
			t.Errorf("precision(%q) = %d %d %d, want %d %d %d", c.in, total, whole, frac, c.total, c.whole, c.frac)
		}
	}
	for _, in := range []string{"", ".", "1e", "1e+", "abc", "1.2.3", "+", "NaN", "Infinity", "0x10", "1e2.5"} {
		if _, ok := parseDecimal(in); ok {
			t.Errorf("parseDecimal(%q) succeeded", in)
		}
	}
}

func TestDecimalOptionsNeedADecimal(t *testing.T) {
	type float struct {
		Price float64 `json:"price" drf:"max_digits=5,decimal_places=2"`
	}
	if _, err := New[float](); err == nil || !strings.Contains(err.Error(), "Price: max_digits and decimal_places need a decimal field") {
		t.Errorf("max_digits on a float: %v", err)
	}
	type rounded struct {
		Price float64 `json:"price" drf:"rounding=ROUND_UP"`
	}
	if _, err := New[rounded](); err == nil || !strings.Contains(err.Error(), "Price: coerce_to_string, rounding, normalize_output and localize need a decimal field") {
		t.Errorf("rounding on a float: %v", err)
	}
	type uuidBound struct {
		ID uuid.UUID `json:"id" drf:"max_value=3"`
	}
	if _, err := New[uuidBound](); err == nil || !strings.Contains(err.Error(), "ID: max_value and min_value need a number field") {
		t.Errorf("max_value on a UUID: %v", err)
	}
	type places struct {
		Price decimal.Decimal `json:"price" drf:"max_digits=2,decimal_places=3"`
	}
	if _, err := New[places](); err == nil || !strings.Contains(err.Error(), "decimal_places cannot exceed max_digits") {
		t.Errorf("decimal_places > max_digits: %v", err)
	}
	type ok struct {
		Price decimal.Decimal `json:"price" drf:"max_digits=5,decimal_places=2"`
	}
	if _, err := New[ok](); err != nil {
		t.Error(err)
	}
}
